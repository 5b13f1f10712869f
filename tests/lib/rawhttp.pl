#!/usr/bin/perl
# Hostile HTTP clients for the hardening tests (loopback only, each bounded in time).
#   rawhttp.pl send PORT HEXBYTES       send the bytes, print the status line (or "closed")
#   rawhttp.pl bigheader PORT KIB       one header line of KIB KiB; print the status line
#   rawhttp.pl manyheaders PORT N       N headers of 100 bytes; print the status line
#   rawhttp.pl slow PORT SECONDS        a GET sent one byte a second; print the status line
#   rawhttp.pl midbody PORT N TOKEN     N POSTs that promise 50 kB and hang up after 10 kB
#   rawhttp.pl idle PORT N SECONDS      N connections from 127.1.x.y held open, then closed;
#                                       prints "connected K" once all are up
use strict;
use warnings;
use IO::Socket::INET;
use Time::HiRes qw(sleep time);

my ($cmd, $port, @a) = @ARGV;
$SIG{PIPE} = 'IGNORE';

sub conn {
	my (%o) = @_;
	return IO::Socket::INET->new(PeerAddr => '127.0.0.1', PeerPort => $port, Proto => 'tcp',
				     Timeout => 5, %o);
}

# First line of the answer within 10 s, or "closed" when the server hung up without one.
sub status {
	my ($s) = @_;
	my $line;
	eval {
		local $SIG{ALRM} = sub { die "timeout\n" };
		alarm 10;
		$line = <$s>;
		alarm 0;
	};
	return 'timeout' if $@;
	return 'closed' unless defined $line;
	$line =~ s/\r?\n$//;
	return $line;
}

if ($cmd eq 'send') {
	my $s = conn() or die "connect: $!";
	print $s pack('H*', $a[0]);
	shutdown($s, 1);
	print status($s), "\n";
} elsif ($cmd eq 'bigheader') {
	my $s = conn() or die "connect: $!";
	print $s "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ", 'a' x ($a[0] * 1024), "\r\n\r\n";
	print status($s), "\n";
} elsif ($cmd eq 'manyheaders') {
	my $s = conn() or die "connect: $!";
	print $s "GET /healthz HTTP/1.1\r\nHost: x\r\n";
	print $s "X-H$_: ", 'b' x 90, "\r\n" for 1 .. $a[0];
	print $s "\r\n";
	print status($s), "\n";
} elsif ($cmd eq 'slow') {
	my $s = conn() or die "connect: $!";
	$s->autoflush(1);
	my $req = "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
	my $n = $a[0];
	# One byte a second for N seconds, then the rest at once so an answer can come.
	for my $i (0 .. $n - 1) {
		print $s substr($req, $i, 1);
		sleep 1;
	}
	print $s substr($req, $n);
	print status($s), "\n";
} elsif ($cmd eq 'midbody') {
	my ($n, $tok) = @a;
	my $ok = 0;
	for (1 .. $n) {
		my $s = conn() or next;
		print $s "POST /api/v1/runs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer $tok\r\n" .
			 "Content-Type: application/json\r\nContent-Length: 50000\r\n\r\n{\"format\":" . ' ' x 10000;
		close $s;
		$ok++;
	}
	print "sent $ok\n";
} elsif ($cmd eq 'idle') {
	my ($n, $secs) = @a;
	my @socks;
	for my $i (0 .. $n - 1) {
		my $src = sprintf('127.1.%d.%d', int($i / 250), $i % 250 + 1);
		my $s = conn(LocalAddr => $src) or last;
		push @socks, $s;
	}
	print "connected ", scalar(@socks), "\n";
	STDOUT->flush;
	sleep $secs;
	close $_ for @socks;
} else {
	die "unknown command $cmd\n";
}
