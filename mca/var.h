/*
 * MCA parameters ("variables"), C ABI: what components and frameworks call to register the values
 * users may tune. The full name is <framework>_<component>_<name>, empty parts left out. The default is
 * whatever *storage holds when registering; after registration *storage always holds the value from
 * the highest-precedence source that set it:
 *   default < system file < user file < --tune files < TESSERA_MCA_<name> environment < --mca command line
 * Strings (STRING, LIST, and the enum's name) are owned by the MCA core: *storage points into it and
 * stays valid until the variable changes or the MCA core is finalized.
 */
#ifndef TESSERA_MCA_VAR_H
#define TESSERA_MCA_VAR_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum mca_var_type {
    MCA_VAR_TYPE_BOOL,     /* bool*:        true/false, yes/no, on/off, 1/0 */
    MCA_VAR_TYPE_INT,      /* int*:         decimal or 0x hex, range-checked */
    MCA_VAR_TYPE_UNSIGNED, /* unsigned*:    no sign */
    MCA_VAR_TYPE_SIZE,     /* size_t*:      bytes, with k/M/G/T suffixes (powers of 1024) */
    MCA_VAR_TYPE_DOUBLE,   /* double* */
    MCA_VAR_TYPE_STRING,   /* const char**  */
    MCA_VAR_TYPE_ENUM,     /* int*:         one of the named values; accepts the name or the number */
    MCA_VAR_TYPE_LIST      /* const char**: comma-separated list, entries trimmed, none empty */
} mca_var_type_t;

/* Enumerators end with a {0, NULL} entry. */
typedef struct mca_var_enum_value {
    int value;
    const char *name;
} mca_var_enum_value_t;

/* Levels as in ompi_info: 1-3 user, 4-6 tuner, 7-9 developer (basic, detail, all in each). */
typedef enum mca_var_info_level {
    MCA_INFO_LVL_1 = 1, MCA_INFO_LVL_2, MCA_INFO_LVL_3, MCA_INFO_LVL_4, MCA_INFO_LVL_5,
    MCA_INFO_LVL_6, MCA_INFO_LVL_7, MCA_INFO_LVL_8, MCA_INFO_LVL_9
} mca_var_info_level_t;

/* Who may change it and whether it must agree across ranks. */
typedef enum mca_var_scope {
    MCA_VAR_SCOPE_CONSTANT, /* fixed at build: shown, never set */
    MCA_VAR_SCOPE_READONLY, /* set by the library itself (e.g. a discovered value) */
    MCA_VAR_SCOPE_LOCAL,    /* may differ between ranks */
    MCA_VAR_SCOPE_GROUP,    /* must be equal among the ranks of a group */
    MCA_VAR_SCOPE_ALL       /* must be equal across the job */
} mca_var_scope_t;

#define MCA_VAR_FLAG_NONE 0x0u
/* Value is a secret: shown as "(hidden)". */
#define MCA_VAR_FLAG_HIDDEN_VALUE 0x1u
/* A synonym flagged deprecated warns when used. */
#define MCA_VAR_FLAG_DEPRECATED 0x2u
/* The library reads the value where it uses it (not once when a framework opens), so a change while MPI
 * runs takes effect at the next use: MPI_T_cvar_write may set it between MPI_Init and MPI_Finalize. */
#define MCA_VAR_FLAG_RUNTIME 0x4u

/*
 * Registers a variable; returns its index (>= 0) or a negative TESSERA_ERR_* code. Registering the
 * same full name again with the same type rebinds *storage and returns the same index (components
 * re-registered after a DSO reload). An enum needs `enumerators`; other types pass NULL.
 */
int mca_var_register(const char *framework, const char *component, const char *name, const char *help,
                     mca_var_type_t type, const mca_var_enum_value_t *enumerators,
                     mca_var_info_level_t level, mca_var_scope_t scope, unsigned flags, void *storage);

/* One variable of a component's table (mca_var_register_table). */
typedef struct mca_var_decl {
    const char *name;
    const char *help;
    mca_var_type_t type;
    const mca_var_enum_value_t *enumerators; /* enums only */
    mca_var_info_level_t level;
    void *storage;
} mca_var_decl_t;

/* Registers `count` variables of framework_component_*, all with `scope` and no flags: components keep
 * their parameters in one table. TESSERA_SUCCESS, or the first registration's error. */
int mca_var_register_table(const char *framework, const char *component, const mca_var_decl_t *decls, size_t count,
                           mca_var_scope_t scope);

/*
 * One parameter as a table row that holds everything about it: its default and its valid range as
 * text in the parameter's own syntax ("64k", "1", "auto"; NULL for an unset STRING or LIST), the
 * help and the level. The range (either end NULL: unbounded) is for INT, UNSIGNED, SIZE and DOUBLE
 * and includes both ends; tessera_info shows it, and a component whose parameter lies outside it is
 * not opened (the error names the parameter, the value, the range and where the value was set).
 */
typedef struct mca_var_row {
    const char *name;
    mca_var_type_t type;
    const char *default_value;
    const char *min;
    const char *max;
    const char *help;
    mca_var_info_level_t level;
    const mca_var_enum_value_t *enumerators; /* enums only */
    void *storage;
} mca_var_row_t;

/*
 * Registers `count` rows of framework_component_*, all with `scope` and no flags. The default is the
 * row's, never what the storage held: the storage needs no initializer that could disagree with it,
 * and a component registered again (vars_finalize, a DSO reloaded) starts from the same default.
 * TESSERA_SUCCESS, or the first error (a default or bound that does not parse as the type, a range
 * on a type without one, a minimum above the maximum).
 */
int mca_var_register_rows(const char *framework, const char *component, const mca_var_row_t *rows, size_t count,
                          mca_var_scope_t scope);

/*
 * Reports, as an error, each parameter of framework_component_* (component "" or NULL: those without
 * one) whose value in force lies outside the range of its row. Returns how many do. The framework
 * core calls it before it opens a component; code outside frameworks calls it where it would check
 * its values.
 */
int mca_var_check_ranges(const char *framework, const char *component);

/* Another name that sets the same variable (MCA_VAR_FLAG_DEPRECATED: warn that it is old). */
int mca_var_register_synonym(int var_index, const char *framework, const char *component,
                             const char *name, unsigned flags);

/* Index of a registered variable by full name or synonym, or TESSERA_ERR_NOT_FOUND. */
int mca_var_find(const char *full_name);

/* Adds flags (MCA_VAR_FLAG_RUNTIME) to a registered variable, for those registered through a table or
 * rows, which carry no flags. TESSERA_SUCCESS or TESSERA_ERR_NOT_FOUND. */
int mca_var_add_flags(int var_index, unsigned flags);

#ifdef __cplusplus
}
#endif

#endif
