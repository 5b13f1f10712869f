#!/bin/sh
# prove --exec helper: shell tests run under bash, unit tests are binaries.
case "$1" in
*.sh) exec bash "$1" ;;
*) exec "$1" ;;
esac
