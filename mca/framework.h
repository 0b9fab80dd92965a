/*
 * Frameworks: a named set of components with one interface (<fw>.h) and its glue (base/). The struct is
 * plain C so that a framework's base can be written in either language; its run-time state is private
 * to the MCA core.
 *
 * Life cycle: register (once: the selection parameter "<fw>", "<fw>_base_verbose", the framework's own
 * parameters, then every component found is loaded and its parameters registered) -> open (counted:
 * the first open filters components by the selection parameter and opens them) -> select -> close
 * (counted: the last close closes components and unloads their DSOs).
 */
#ifndef TESSERA_MCA_FRAMEWORK_H
#define TESSERA_MCA_FRAMEWORK_H

#include "mca/component.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum mca_framework_kind {
    MCA_FRAMEWORK_ONE_OF_MANY,  /* exactly one component runs (highest priority) */
    MCA_FRAMEWORK_MANY_OF_MANY, /* every component whose query accepts runs */
    MCA_FRAMEWORK_PER_OBJECT    /* the framework selects per object (per communicator, per type) */
} mca_framework_kind_t;

struct mca_framework_state;

/* mca_base_framework_t.flags */
/* Opt-in: no component runs unless the selection parameter names it (tracing costs nothing by default). */
#define MCA_FRAMEWORK_FLAG_OPT_IN 0x1u

typedef struct mca_base_framework {
    const char *layer;       /* "opal", "orte" or "ompi" */
    const char *name;        /* "btl" */
    const char *description; /* one line for tessera_info */
    mca_base_version_t version;      /* framework API version components must match */
    mca_framework_kind_t kind;
    size_t component_struct_size;    /* this build's size of the framework's component struct */
    int (*register_params)(void);    /* the framework's own parameters; may be NULL */
    int (*open)(void);               /* after its components are open; may be NULL */
    int (*close)(void);              /* before its components close; may be NULL */
    const mca_base_component_t *const *static_components; /* generated, NULL-terminated */
    struct mca_framework_state *state; /* owned by the MCA core; NULL until registered */
    uint32_t flags;                    /* MCA_FRAMEWORK_FLAG_* */
    uint32_t reserved_u32;
    void *reserved[3];
} mca_base_framework_t;

#ifdef __cplusplus
}

#include <string>
#include <vector>

namespace tessera::mca {

struct ComponentEntry {
    const mca_base_component_t *component = nullptr;
    std::string path; /* the DSO it came from; empty for a static component */
    bool is_static() const { return path.empty(); }
};

struct LoadError {
    std::string framework; /* may be empty when the file name says nothing */
    std::string component;
    std::string file;
    std::string reason;
};

struct SelectedComponent {
    const mca_base_component_t *component = nullptr;
    void *module = nullptr;
    int priority = 0;
};

/* Idempotent. Adds the framework to the process-wide list that tools iterate. */
int framework_register(mca_base_framework_t *fw);
/* Counted. Fails with TESSERA_ERR_BAD_PARAM (after reporting why) for a bad selection value. */
int framework_open(mca_base_framework_t *fw);
int framework_close(mca_base_framework_t *fw);
bool framework_is_open(const mca_base_framework_t *fw);

/* Components that passed the loader's checks (after register) or that are open (after open). */
std::vector<ComponentEntry> framework_components(const mca_base_framework_t *fw);
/* Every framework registered so far, in registration order. */
std::vector<mca_base_framework_t *> registered_frameworks();

/* One-of-many: queries the open components, keeps the highest priority, closes the rest. */
int select_one(mca_base_framework_t *fw, SelectedComponent *out);
/* Many-of-many: keeps (in descending priority) every open component whose query accepts. For an opt-in
 * framework whose selection parameter is empty: TESSERA_SUCCESS and no component. */
int select_many(mca_base_framework_t *fw, std::vector<SelectedComponent> *out);

/* A note on stderr when "<fw>_base_verbose" is at least `level` (framework bases report with it too). */
void framework_note(const mca_base_framework_t &fw, int level, const std::string &text);

/* DSOs and static components refused since start-up, with the reason. */
std::vector<LoadError> load_errors();

/* Closes every framework still open and unloads every DSO (MPI_Finalize, tools at exit). */
void frameworks_finalize();

} // namespace tessera::mca
#endif

#endif
