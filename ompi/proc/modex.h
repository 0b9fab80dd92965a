/*
 * The job as components see it, and the exchange of their business cards ("modex"): during MPI_Init a
 * component puts what peers need to reach it (a TCP address, a shared-memory segment name) under a key
 * of its own; after the fence every rank's cards can be read. Plain C, for components built in or
 * loaded from DSOs. MPI_Init installs the backend (mpirun's key-value service, or an in-process table
 * for a singleton); unit tests install their own.
 *
 * Order in MPI_Init: tessera_job_info() is valid before the btl components' btl_init run (they put
 * their cards there); the fence follows; btl add_procs may then get every peer's cards.
 */
#ifndef TESSERA_OMPI_PROC_MODEX_H
#define TESSERA_OMPI_PROC_MODEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tessera_job_info {
    bool singleton;          /* no mpirun: rank 0 of 1 */
    uint32_t jobid;
    uint32_t rank;           /* in MPI_COMM_WORLD */
    uint32_t size;
    uint32_t local_rank;     /* among the job's ranks on this host */
    uint32_t local_size;
    uint32_t node_id;        /* index of this rank's host in the job: equal node ids, same host */
    const char *host;        /* the host name mpirun was given ("127.0.0.2" for a loopback "host") */
    const char *job_key;     /* the job's secret (64 hex digits; "" for a singleton): transports
                              * prove membership with it and never print it */
} tessera_job_info_t;

/* NULL before MPI_Init installed it. Valid until MPI_Finalize. */
const tessera_job_info_t *tessera_job_info(void);

/*
 * Puts this rank's card under `key` (a component's own name, "btl.tcp"); before the fence only.
 * TESSERA_ERR_BAD_PARAM: no backend, or after the fence.
 */
int tessera_modex_put(const char *key, const void *data, size_t len);

/*
 * The card `rank` put under `key`; *data stays valid until MPI_Finalize. TESSERA_ERR_NOT_FOUND when
 * that rank put none (e.g. the component does not run there), TESSERA_ERR_BAD_PARAM before the fence.
 */
int tessera_modex_get(uint32_t rank, const char *key, const void **data, size_t *len);

/* The backend: MPI_Init's (key-value service) or a test's. */
typedef struct tessera_modex_ops {
    int (*put)(void *ctx, const char *key, const void *data, size_t len);
    int (*get)(void *ctx, uint32_t rank, const char *key, const void **data, size_t *len);
    void *ctx;
} tessera_modex_ops_t;

/* Installs job info and backend (copied; strings must outlive the installation). NULL, NULL removes. */
void tessera_modex_install(const tessera_job_info_t *info, const tessera_modex_ops_t *ops);

#ifdef __cplusplus
}
#endif

#endif
