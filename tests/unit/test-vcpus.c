/* --vcpus when not given (KVM cannot be tried here: the choice is tested as a function). */
#include "tap.h"
#include "qemu.h"

int main(void)
{
	is_int(fw_default_vcpus(FW_ACCEL_KVM, 32), 32, "kvm: every usable host CPU");
	is_int(fw_default_vcpus(FW_ACCEL_KVM, 1), 1, "kvm: a 1-CPU runner gives 1");
	is_int(fw_default_vcpus(FW_ACCEL_KVM, 256), FW_GUEST_NR_CPUS, "kvm: no more than the guest's NR_CPUS");
	is_int(fw_default_vcpus(FW_ACCEL_KVM, 0), 2, "kvm: unknown host count falls back to 2");
	is_int(fw_default_vcpus(FW_ACCEL_TCG, 32), 2, "tcg: 2 whatever the host");
	is_int(fw_default_vcpus(FW_ACCEL_ICOUNT, 32), 1, "icount: 1 (one vCPU runs at a time; a second only adds spinning)");
	is_int(fw_default_parallel(FW_ACCEL_ICOUNT, 1, 2), 2, "icount on 2 CPUs: 2 boots at once (one host thread each)");
	is_int(fw_default_parallel(FW_ACCEL_ICOUNT, 4, 16), 16, "icount: vCPUs take turns on one thread, so 16 on 16 CPUs");
	is_int(fw_default_parallel(FW_ACCEL_TCG, 2, 2), 1, "tcg with 2 vCPUs on 2 CPUs: 1");
	is_int(fw_default_parallel(FW_ACCEL_TCG, 2, 16), 8, "tcg with 2 vCPUs on 16 CPUs: 8");
	is_int(fw_default_parallel(FW_ACCEL_KVM, 1, 16), 1, "kvm: 1 unless --parallel says otherwise");
	is_int(fw_default_parallel(FW_ACCEL_ICOUNT, 1, 1), 1, "a 1-CPU host: 1");
	ok(fw_usable_cpus() >= 1, "this process may use at least one CPU");
	return done_testing();
}
