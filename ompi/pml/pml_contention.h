/*
 * Whether this process is kept waiting for its CPU (pml_single_copy=auto, docs/p2p.md). Streaming a
 * large message through a transport's buffers needs the sender and the receiver running at the same
 * time; a single-copy read needs only the receiver. When a core is shared (another job, OS noise, more
 * ranks than cores), the kernel's run delay of this thread — time runnable but not running — grows,
 * and large messages move faster read in one copy.
 */
#ifndef TESSERA_OMPI_PML_PML_CONTENTION_H
#define TESSERA_OMPI_PML_PML_CONTENTION_H

#include <cstdint>

namespace tessera::ompi::pml {

/* Opens the run-delay source (/proc/thread-self/schedstat) and starts the first window. */
void contention_init();
void contention_finalize();

/* The share of the last completed window of pml_contention_window seconds that the thread spent
 * waiting for a CPU (0 where the kernel does not count it). Cheap: a clock read, and a read of the run
 * delay once per window. */
double run_delay_share();

/* True when this host's ranks outnumber its cores, or when run_delay_share() is at least
 * pml_contention_threshold (threshold 0: always true). */
bool cpu_contended();

/* The thread's run delay (ns) as the kernel counts it; false where it cannot be read. For tests. */
bool read_run_delay(uint64_t *ns);

} // namespace tessera::ompi::pml

#endif
