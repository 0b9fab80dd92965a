/* Parser of the datatype corpus notation and builder through MPI calls: see ddt_parse.h. */
#include "ddt_parse.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kMaxExpansion = 1000000 };

/* ---- element types ---- */

static const struct {
    const char *name;
    long size;
} kPrims[] = {
    {"byte", 1}, {"char", sizeof(char)}, {"short", sizeof(short)}, {"int", sizeof(int)},
    {"long", sizeof(long)}, {"float", sizeof(float)}, {"double", sizeof(double)},
};
enum { kNumPrims = (int)(sizeof kPrims / sizeof kPrims[0]) };

const char *ddt_prim_name(int prim)
{
    return prim >= 0 && prim < kNumPrims ? kPrims[prim].name : "?";
}

MPI_Datatype ddt_prim_type(int prim)
{
    switch (prim) {
    case 0: return MPI_BYTE;
    case 1: return MPI_CHAR;
    case 2: return MPI_SHORT;
    case 3: return MPI_INT;
    case 4: return MPI_LONG;
    case 5: return MPI_FLOAT;
    case 6: return MPI_DOUBLE;
    default: return MPI_DATATYPE_NULL;
    }
}

/* ---- allocation: everything belongs to the set ---- */

void ddt_set_init(ddt_set *set)
{
    memset(set, 0, sizeof *set);
}

void ddt_set_free(ddt_set *set)
{
    for (int i = 0; i < set->nblocks; ++i) {
        free(set->blocks[i]);
    }
    free(set->blocks);
    free(set->types);
    memset(set, 0, sizeof *set);
}

static void *xalloc(ddt_set *set, size_t n)
{
    void *p = calloc(1, n ? n : 1);
    if (p == NULL) {
        fprintf(stderr, "ddt_parse: out of memory\n");
        abort();
    }
    if (set->nblocks == set->capblocks) {
        set->capblocks = set->capblocks ? 2 * set->capblocks : 256;
        set->blocks = realloc(set->blocks, (size_t)set->capblocks * sizeof *set->blocks);
        if (set->blocks == NULL) {
            fprintf(stderr, "ddt_parse: out of memory\n");
            abort();
        }
    }
    set->blocks[set->nblocks++] = p;
    return p;
}

static char *xstrndup(ddt_set *set, const char *s, size_t n)
{
    char *p = xalloc(set, n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

/* ---- tokens ---- */

typedef enum { T_END, T_NUM, T_ID, T_PUNCT } tok_kind;

typedef struct {
    tok_kind kind;
    long val;
    const char *s;
    int len;
    int line;
} token;

typedef struct {
    ddt_set *set;
    const char *origin;
    token *toks;
    int ntoks, pos;
    char *err;
    size_t errlen;
    int failed;
} parser;

static void fail(parser *p, const token *t, const char *fmt, ...)
{
    if (p->failed) {
        return;
    }
    p->failed = 1;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (t->kind == T_END) {
        snprintf(p->err, p->errlen, "%s:%d: %s, found end of input", p->origin, t->line, msg);
    } else {
        snprintf(p->err, p->errlen, "%s:%d: %s, found '%.*s'", p->origin, t->line, msg, t->len > 60 ? 60 : t->len,
                 t->s);
    }
}

static int tokenize(parser *p, const char *text, int line)
{
    int cap = 1024;
    p->toks = malloc((size_t)cap * sizeof *p->toks);
    p->ntoks = 0;
    const char *s = text;
    for (;;) {
        if (p->ntoks + 1 >= cap) {
            cap *= 2;
            p->toks = realloc(p->toks, (size_t)cap * sizeof *p->toks);
        }
        token *t = &p->toks[p->ntoks];
        while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n' || *s == '\f' || *s == '\v' ||
               (s[0] == '/' && s[1] == '/')) {
            if (*s == '/') {
                while (*s && *s != '\n') {
                    ++s;
                }
                continue;
            }
            if (*s == '\n') {
                ++line;
            }
            ++s;
        }
        t->s = s;
        t->line = line;
        t->val = 0;
        if (*s == '\0') {
            t->kind = T_END;
            t->len = 0;
            ++p->ntoks;
            return 0;
        }
        if (isdigit((unsigned char)*s) || ((*s == '-' || *s == '+') && isdigit((unsigned char)s[1]))) {
            char *end;
            errno = 0;
            t->val = strtol(s, &end, 10);
            t->kind = T_NUM;
            t->len = (int)(end - s);
            if (errno == ERANGE || isalpha((unsigned char)*end) || *end == '_') {
                while (isalnum((unsigned char)*end) || *end == '_') {
                    ++end;
                }
                t->len = (int)(end - s);
                fail(p, t, "bad number");
                return -1;
            }
            s = end;
        } else if (isalpha((unsigned char)*s) || *s == '_') {
            t->kind = T_ID;
            const char *b = s;
            while (isalnum((unsigned char)*s) || *s == '_') {
                ++s;
            }
            t->len = (int)(s - b);
        } else if (strchr("()[]:,;", *s)) {
            t->kind = T_PUNCT;
            t->len = 1;
            ++s;
        } else {
            t->kind = T_PUNCT;
            t->len = 1;
            fail(p, t, "unknown character");
            return -1;
        }
        ++p->ntoks;
    }
}

static token *peek(parser *p, int ahead)
{
    int i = p->pos + ahead;
    return &p->toks[i < p->ntoks ? i : p->ntoks - 1];
}

static int is_punct(const token *t, char c)
{
    return t->kind == T_PUNCT && t->s[0] == c;
}

static int expect(parser *p, char c)
{
    token *t = peek(p, 0);
    if (!is_punct(t, c)) {
        fail(p, t, "expected '%c'", c);
        return -1;
    }
    ++p->pos;
    return 0;
}

/* ---- ranges ---- */

typedef struct {
    long start, step, stop;
    long n;
} range;

static long range_value(const range *r, long i)
{
    return r->start + i * r->step;
}

/* NUM or NUM ':' NUM ':' NUM (start:step:stop). A NUM ':' NUM not followed by ':' is a NUM followed by
 * the ':' of idxb(blen: ...). */
static int parse_range(parser *p, range *r)
{
    token *t = peek(p, 0);
    if (t->kind != T_NUM) {
        fail(p, t, "expected a number or a range start:step:stop");
        return -1;
    }
    r->start = r->stop = t->val;
    r->step = 1;
    r->n = 1;
    if (is_punct(peek(p, 1), ':') && peek(p, 2)->kind == T_NUM && is_punct(peek(p, 3), ':')) {
        token *ts = peek(p, 2), *te = peek(p, 4);
        if (te->kind != T_NUM) {
            p->pos += 4;
            fail(p, te, "expected the stop of range %ld:%ld:", t->val, ts->val);
            return -1;
        }
        r->step = ts->val;
        r->stop = te->val;
        if (r->step == 0 || (r->stop - r->start) / r->step < 0) {
            p->pos += 2;
            fail(p, ts, "range %ld:%ld:%ld is empty or endless (bad step)", r->start, r->step, r->stop);
            return -1;
        }
        r->n = (r->stop - r->start) / r->step + 1;
        p->pos += 5;
        return 0;
    }
    ++p->pos;
    return 0;
}

/* ---- node properties (MPI rules) ---- */

typedef struct {
    int any, anytrue;
    long lb, ub, tlb, tub;
} bounds;

static void bounds_add(bounds *b, long disp, const ddt_node *k)
{
    if (!b->any || disp + k->lb < b->lb) {
        b->lb = disp + k->lb;
    }
    if (!b->any || disp + k->ub > b->ub) {
        b->ub = disp + k->ub;
    }
    b->any = 1;
    if (k->size > 0) {
        if (!b->anytrue || disp + k->true_lb < b->tlb) {
            b->tlb = disp + k->true_lb;
        }
        if (!b->anytrue || disp + k->true_ub > b->tub) {
            b->tub = disp + k->true_ub;
        }
        b->anytrue = 1;
    }
}

static long extent_of(const ddt_node *k)
{
    return k->ub - k->lb;
}

/* Instances of k at base + i*s1 + j*s2 for i < n1, j < n2: the bounds are at the corners. */
static void bounds_grid(bounds *b, long base, long n1, long s1, long n2, long s2, const ddt_node *k)
{
    if (n1 <= 0 || n2 <= 0) {
        return;
    }
    bounds_add(b, base, k);
    bounds_add(b, base + (n1 - 1) * s1, k);
    bounds_add(b, base + (n2 - 1) * s2, k);
    bounds_add(b, base + (n1 - 1) * s1 + (n2 - 1) * s2, k);
}

static void finish(ddt_node *n, const bounds *b)
{
    n->lb = b->any ? b->lb : 0;
    n->ub = b->any ? b->ub : 0;
    n->true_lb = b->anytrue ? b->tlb : 0;
    n->true_ub = b->anytrue ? b->tub : 0;
}

static long sub_stride(const ddt_node *n, int d)
{
    long s = 1;
    for (int k = d + 1; k < n->n; ++k) {
        s *= n->v1[k];
    }
    return s;
}

static void compute(ddt_node *n)
{
    bounds b = {0};
    ddt_node *k = n->kids ? n->kids[0] : NULL;
    long e = k ? extent_of(k) : 0;
    switch (n->kind) {
    case DDT_PRIM:
        n->size = kPrims[n->prim].size;
        n->lb = n->true_lb = 0;
        n->ub = n->true_ub = n->size;
        n->align = (int)n->size;
        n->depth = 0;
        n->nblocks = 1;
        return;
    case DDT_CTG:
        n->size = n->a * k->size;
        n->nblocks = n->a * k->nblocks;
        bounds_grid(&b, 0, n->a, e, 1, 0, k);
        break;
    case DDT_VEC:
    case DDT_HVEC:
        n->size = n->a * n->b * k->size;
        n->nblocks = n->a * n->b * k->nblocks;
        bounds_grid(&b, 0, n->a, n->kind == DDT_VEC ? n->c * e : n->c, n->b, e, k);
        break;
    case DDT_HIDX:
    case DDT_IDX:
        n->size = n->nblocks = 0;
        for (int i = 0; i < n->n; ++i) {
            n->size += n->v2[i] * k->size;
            n->nblocks += n->v2[i] * k->nblocks;
            bounds_grid(&b, n->kind == DDT_IDX ? n->v1[i] * e : n->v1[i], n->v2[i], e, 1, 0, k);
        }
        break;
    case DDT_IDXB:
        n->size = n->n * n->b * k->size;
        n->nblocks = n->n * n->b * k->nblocks;
        for (int i = 0; i < n->n; ++i) {
            bounds_grid(&b, n->v1[i] * e, n->b, e, 1, 0, k);
        }
        break;
    case DDT_RESIZED:
        n->size = k->size;
        n->nblocks = k->nblocks;
        bounds_add(&b, 0, k);
        b.lb = n->a;
        b.ub = n->a + n->b;
        b.any = 1;
        break;
    case DDT_STRUCT:
        n->size = n->nblocks = 0;
        for (int i = 0; i < n->n; ++i) {
            const ddt_node *ki = n->kids[i];
            n->size += n->v2[i] * ki->size;
            n->nblocks += n->v2[i] * ki->nblocks;
            bounds_grid(&b, n->v1[i], n->v2[i], extent_of(ki), 1, 0, ki);
        }
        break;
    case DDT_SUBARRAY: {
        long total = 1, lo = 0, hi = 0;
        n->size = k->size;
        n->nblocks = k->nblocks;
        for (int d = 0; d < n->n; ++d) {
            total *= n->v1[d];
            n->size *= n->v2[d];
            n->nblocks *= n->v2[d];
            lo += n->v3[d] * sub_stride(n, d);
            hi += (n->v3[d] + n->v2[d] - 1) * sub_stride(n, d);
        }
        bounds_add(&b, lo * e, k);
        bounds_add(&b, hi * e, k);
        b.lb = 0;
        b.ub = total * e;
        break;
    }
    }
    finish(n, &b);
    n->align = 1;
    n->depth = 0;
    int nk = n->kind == DDT_STRUCT ? n->n : 1;
    for (int i = 0; i < nk; ++i) {
        if (n->kids[i]->align > n->align) {
            n->align = n->kids[i]->align;
        }
        if (n->kids[i]->depth > n->depth) {
            n->depth = n->kids[i]->depth;
        }
    }
    n->depth += 1;
    if (n->kind == DDT_STRUCT) {
        /* The epsilon of MPI's struct: the extent is rounded up to the largest element alignment. */
        long ext = n->ub - n->lb, al = n->align;
        if (al > 1 && ext % al != 0) {
            n->ub += al - ext % al;
        }
    }
}

/* ---- construction with range expansion ---- */

typedef struct {
    ddt_node **v;
    long n;
} nodelist;

static const char *kind_name(ddt_kind k)
{
    static const char *names[] = {"prim", "ctg", "vec", "hvec", "hidx", "idx", "idxb", "resized", "struct", "subarray"};
    return names[k];
}

static int fits_int(long v)
{
    return v >= INT_MIN && v <= INT_MAX;
}

/* Makes one node of kind from the chosen values vals[] (one per range, in order) and kids[]. */
static ddt_node *make(parser *p, const token *at, ddt_kind kind, int nentries, const long *vals, ddt_node **kids)
{
    ddt_node *n = xalloc(p->set, sizeof *n);
    n->kind = kind;
    n->n = nentries;
    const int nk = kind == DDT_STRUCT ? nentries : 1;
    n->kids = xalloc(p->set, (size_t)nk * sizeof *n->kids);
    memcpy(n->kids, kids, (size_t)nk * sizeof *kids);
    const char *bad = NULL;
    long badv = 0;
#define CHECK(cond, what, v)                                                                                       \
    do {                                                                                                           \
        if (!(cond) && bad == NULL) {                                                                              \
            bad = what;                                                                                            \
            badv = v;                                                                                              \
        }                                                                                                          \
    } while (0)
    switch (kind) {
    case DDT_CTG:
        n->a = vals[0];
        CHECK(n->a >= 0 && fits_int(n->a), "count", n->a);
        break;
    case DDT_VEC:
    case DDT_HVEC:
        n->a = vals[0];
        n->b = vals[1];
        n->c = vals[2];
        CHECK(n->a >= 0 && fits_int(n->a), "count", n->a);
        CHECK(n->b >= 0 && fits_int(n->b), "block length", n->b);
        CHECK(kind == DDT_HVEC || fits_int(n->c), "stride", n->c);
        break;
    case DDT_HIDX:
    case DDT_IDX:
    case DDT_STRUCT:
        n->v1 = xalloc(p->set, (size_t)nentries * sizeof(long));
        n->v2 = xalloc(p->set, (size_t)nentries * sizeof(long));
        for (int i = 0; i < nentries; ++i) {
            n->v1[i] = vals[2 * i];
            n->v2[i] = vals[2 * i + 1];
            CHECK(kind != DDT_IDX || fits_int(n->v1[i]), "displacement", n->v1[i]);
            CHECK(n->v2[i] >= 0 && fits_int(n->v2[i]), "block length", n->v2[i]);
        }
        break;
    case DDT_IDXB:
        n->b = vals[0];
        CHECK(n->b >= 0 && fits_int(n->b), "block length", n->b);
        n->v1 = xalloc(p->set, (size_t)nentries * sizeof(long));
        for (int i = 0; i < nentries; ++i) {
            n->v1[i] = vals[1 + i];
            CHECK(fits_int(n->v1[i]), "displacement", n->v1[i]);
        }
        break;
    case DDT_RESIZED:
        n->a = vals[0];
        n->b = vals[1];
        break;
    case DDT_SUBARRAY:
        n->v1 = xalloc(p->set, (size_t)nentries * sizeof(long));
        n->v2 = xalloc(p->set, (size_t)nentries * sizeof(long));
        n->v3 = xalloc(p->set, (size_t)nentries * sizeof(long));
        for (int d = 0; d < nentries; ++d) {
            n->v1[d] = vals[3 * d];
            n->v2[d] = vals[3 * d + 1];
            n->v3[d] = vals[3 * d + 2];
            CHECK(n->v1[d] > 0 && fits_int(n->v1[d]), "size", n->v1[d]);
            CHECK(n->v2[d] > 0 && n->v2[d] <= n->v1[d], "subsize", n->v2[d]);
            CHECK(n->v3[d] >= 0 && n->v3[d] + n->v2[d] <= n->v1[d], "start", n->v3[d]);
        }
        break;
    case DDT_PRIM:
        break;
    }
#undef CHECK
    if (bad != NULL) {
        fail(p, at, "%s: bad %s %ld", kind_name(kind), bad, badv);
        return NULL;
    }
    compute(n);
    return n;
}

/* All combinations of the ranges and of the kids' expansions: the kids vary slowest, the last range
 * fastest. */
static nodelist expand(parser *p, const token *at, ddt_kind kind, int nentries, const range *r, int nr,
                       const nodelist *kl, int nkl)
{
    nodelist out = {NULL, 0};
    double total = 1;
    for (int i = 0; i < nkl; ++i) {
        total *= (double)kl[i].n;
    }
    for (int i = 0; i < nr; ++i) {
        total *= (double)r[i].n;
    }
    if (total > kMaxExpansion) {
        fail(p, at, "%s: expands to %.0f types (more than %d)", kind_name(kind), total, kMaxExpansion);
        return out;
    }
    out.n = (long)total;
    out.v = xalloc(p->set, (size_t)(out.n ? out.n : 1) * sizeof *out.v);
    long *vals = malloc((size_t)(nr ? nr : 1) * sizeof *vals);
    ddt_node **kids = malloc((size_t)(nkl ? nkl : 1) * sizeof *kids);
    for (long idx = 0; idx < out.n; ++idx) {
        long rest = idx;
        for (int i = nr - 1; i >= 0; --i) {
            vals[i] = range_value(&r[i], rest % r[i].n);
            rest /= r[i].n;
        }
        for (int i = nkl - 1; i >= 0; --i) {
            kids[i] = kl[i].v[rest % kl[i].n];
            rest /= kl[i].n;
        }
        out.v[idx] = make(p, at, kind, nentries, vals, kids);
        if (out.v[idx] == NULL) {
            out.n = 0;
            break;
        }
    }
    free(vals);
    free(kids);
    return out;
}

static nodelist parse_type(parser *p);

static nodelist parse_subtype(parser *p)
{
    nodelist none = {NULL, 0};
    if (expect(p, '[') != 0) {
        return none;
    }
    nodelist k = parse_type(p);
    if (p->failed || expect(p, ']') != 0) {
        return none;
    }
    return k;
}

typedef struct {
    range *v;
    int n, cap;
} rangevec;

static void push_range(rangevec *rv, const range *r)
{
    if (rv->n == rv->cap) {
        rv->cap = rv->cap ? 2 * rv->cap : 16;
        rv->v = realloc(rv->v, (size_t)rv->cap * sizeof *rv->v);
    }
    rv->v[rv->n++] = *r;
}

static int skip_sep(parser *p, const char *seps)
{
    token *t = peek(p, 0);
    if (t->kind == T_PUNCT && strchr(seps, t->s[0])) {
        ++p->pos;
        return 1;
    }
    return 0;
}

static nodelist parse_type(parser *p)
{
    nodelist none = {NULL, 0};
    token *t = peek(p, 0);
    if (t->kind != T_ID) {
        fail(p, t, "expected a type (ctg, vec, hvec, hidx, idx, idxb, resized, struct, subarray or an element type)");
        return none;
    }
    for (int i = 0; i < kNumPrims; ++i) {
        if ((int)strlen(kPrims[i].name) == t->len && strncmp(kPrims[i].name, t->s, (size_t)t->len) == 0) {
            ++p->pos;
            ddt_node *n = xalloc(p->set, sizeof *n);
            n->kind = DDT_PRIM;
            n->prim = i;
            compute(n);
            nodelist one = {xalloc(p->set, sizeof(ddt_node *)), 1};
            one.v[0] = n;
            return one;
        }
    }
    static const struct {
        const char *name;
        ddt_kind kind;
    } ctors[] = {{"ctg", DDT_CTG},   {"vec", DDT_VEC},         {"hvec", DDT_HVEC},     {"hidx", DDT_HIDX},
                 {"idx", DDT_IDX},   {"idxb", DDT_IDXB},       {"resized", DDT_RESIZED}, {"struct", DDT_STRUCT},
                 {"subarray", DDT_SUBARRAY}};
    int kind = -1;
    for (size_t i = 0; i < sizeof ctors / sizeof ctors[0]; ++i) {
        if ((int)strlen(ctors[i].name) == t->len && strncmp(ctors[i].name, t->s, (size_t)t->len) == 0) {
            kind = (int)ctors[i].kind;
        }
    }
    if (kind < 0) {
        fail(p, t, "unknown type name");
        return none;
    }
    token *at = t;
    ++p->pos;
    if (expect(p, '(') != 0) {
        return none;
    }
    rangevec rv = {NULL, 0, 0};
    nodelist result = none;
    nodelist *kl = NULL;
    int nkl = 0, nentries = 0;
    range r;
    switch ((ddt_kind)kind) {
    case DDT_CTG:
        if (parse_range(p, &r) != 0) {
            goto out;
        }
        push_range(&rv, &r);
        break;
    case DDT_VEC:
    case DDT_HVEC:
        for (int i = 0; i < 3; ++i) {
            if (i > 0) {
                skip_sep(p, ",");
            }
            if (parse_range(p, &r) != 0) {
                goto out;
            }
            push_range(&rv, &r);
        }
        break;
    case DDT_RESIZED:
        if (parse_range(p, &r) != 0) {
            goto out;
        }
        push_range(&rv, &r);
        skip_sep(p, ",");
        if (parse_range(p, &r) != 0) {
            goto out;
        }
        push_range(&rv, &r);
        break;
    case DDT_HIDX:
    case DDT_IDX:
    case DDT_STRUCT:
    case DDT_SUBARRAY: {
        const int per = kind == DDT_SUBARRAY ? 3 : 2;
        while (!is_punct(peek(p, 0), ')')) {
            for (int i = 0; i < per; ++i) {
                if (i > 0 && expect(p, ',') != 0) {
                    goto out;
                }
                if (parse_range(p, &r) != 0) {
                    goto out;
                }
                push_range(&rv, &r);
            }
            if (kind == DDT_STRUCT) {
                kl = realloc(kl, (size_t)(nkl + 1) * sizeof *kl);
                kl[nkl] = parse_subtype(p);
                if (p->failed) {
                    goto out;
                }
                ++nkl;
            }
            ++nentries;
            skip_sep(p, ";,");
        }
        if (nentries == 0) {
            fail(p, peek(p, 0), "%s: expected at least one entry", kind_name((ddt_kind)kind));
            goto out;
        }
        break;
    }
    case DDT_IDXB:
        if (parse_range(p, &r) != 0) {
            goto out;
        }
        push_range(&rv, &r);
        if (expect(p, ':') != 0) {
            goto out;
        }
        while (!is_punct(peek(p, 0), ')')) {
            if (parse_range(p, &r) != 0) {
                goto out;
            }
            push_range(&rv, &r);
            ++nentries;
            skip_sep(p, ",;");
        }
        break;
    case DDT_PRIM:
        break;
    }
    if (expect(p, ')') != 0) {
        goto out;
    }
    if (kind != DDT_STRUCT) {
        kl = malloc(sizeof *kl);
        kl[0] = parse_subtype(p);
        nkl = 1;
        if (p->failed) {
            goto out;
        }
    }
    result = expand(p, at, (ddt_kind)kind, nentries, rv.v, rv.n, kl, nkl);
out:
    free(rv.v);
    free(kl);
    return p->failed ? none : result;
}

static char *collapse_source(ddt_set *set, const char *b, const char *e)
{
    char *out = xalloc(set, (size_t)(e - b) + 1);
    size_t n = 0;
    int space = 0;
    for (const char *s = b; s < e; ++s) {
        if (s[0] == '/' && s + 1 < e && s[1] == '/') {
            while (s < e && *s != '\n') {
                ++s;
            }
            space = 1;
            continue;
        }
        if (isspace((unsigned char)*s)) {
            space = 1;
            continue;
        }
        if (space && n > 0) {
            out[n++] = ' ';
        }
        space = 0;
        out[n++] = *s;
    }
    out[n] = '\0';
    return out;
}

int ddt_parse_string(ddt_set *set, const char *text, const char *origin, int first_line, char *err, size_t errlen)
{
    parser p = {set, origin, NULL, 0, 0, err, errlen, 0};
    if (errlen > 0) {
        err[0] = '\0';
    }
    char *org = xstrndup(set, origin, strlen(origin));
    if (tokenize(&p, text, first_line) != 0) {
        free(p.toks);
        return -1;
    }
    while (peek(&p, 0)->kind != T_END) {
        token *first = peek(&p, 0);
        nodelist l = parse_type(&p);
        if (p.failed) {
            free(p.toks);
            return -1;
        }
        token *last = &p.toks[p.pos - 1];
        char *src = collapse_source(set, first->s, last->s + last->len);
        for (long i = 0; i < l.n; ++i) {
            if (set->n == set->cap) {
                set->cap = set->cap ? 2 * set->cap : 64;
                set->types = realloc(set->types, (size_t)set->cap * sizeof *set->types);
            }
            ddt_type *ty = &set->types[set->n++];
            ty->origin = org;
            ty->line = first->line;
            ty->variant = (int)i;
            ty->nvariants = (int)l.n;
            ty->source = src;
            char *f = ddt_format(l.v[i]);
            ty->text = xstrndup(set, f, strlen(f));
            free(f);
            ty->root = l.v[i];
        }
    }
    free(p.toks);
    return 0;
}

int ddt_parse_file(ddt_set *set, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    size_t cap = 1 << 16, n = 0;
    char *text = malloc(cap);
    for (;;) {
        if (n + 4096 > cap) {
            cap *= 2;
            text = realloc(text, cap);
        }
        size_t got = fread(text + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0) {
            break;
        }
    }
    fclose(f);
    text[n] = '\0';
    if (strlen(text) != n) {
        snprintf(err, errlen, "%s: contains a NUL byte", path);
        free(text);
        return -1;
    }
    int rc = ddt_parse_string(set, text, path, 1, err, errlen);
    free(text);
    return rc;
}

/* ---- MPI construction ---- */

int ddt_build(const ddt_node *n, MPI_Datatype *out, const char **failed_call)
{
    const char *dummy;
    if (failed_call == NULL) {
        failed_call = &dummy;
    }
    *out = MPI_DATATYPE_NULL;
    if (n->kind == DDT_PRIM) {
        *out = ddt_prim_type(n->prim);
        return MPI_SUCCESS;
    }
    const int nk = n->kind == DDT_STRUCT ? n->n : 1;
    MPI_Datatype kt[nk > 0 ? nk : 1];
    int rc = MPI_SUCCESS;
    int built = 0;
    for (; built < nk; ++built) {
        rc = ddt_build(n->kids[built], &kt[built], failed_call);
        if (rc != MPI_SUCCESS) {
            goto out;
        }
    }
    int *ib = NULL, *id = NULL;
    MPI_Aint *ad = NULL;
    if (n->n > 0) {
        ib = malloc((size_t)n->n * sizeof *ib);
        id = malloc((size_t)n->n * sizeof *id);
        ad = malloc((size_t)n->n * sizeof *ad);
    }
    switch (n->kind) {
    case DDT_CTG:
        *failed_call = "MPI_Type_contiguous";
        rc = MPI_Type_contiguous((int)n->a, kt[0], out);
        break;
    case DDT_VEC:
        *failed_call = "MPI_Type_vector";
        rc = MPI_Type_vector((int)n->a, (int)n->b, (int)n->c, kt[0], out);
        break;
    case DDT_HVEC:
        *failed_call = "MPI_Type_create_hvector";
        rc = MPI_Type_create_hvector((int)n->a, (int)n->b, (MPI_Aint)n->c, kt[0], out);
        break;
    case DDT_HIDX:
        for (int i = 0; i < n->n; ++i) {
            ib[i] = (int)n->v2[i];
            ad[i] = (MPI_Aint)n->v1[i];
        }
        *failed_call = "MPI_Type_create_hindexed";
        rc = MPI_Type_create_hindexed(n->n, ib, ad, kt[0], out);
        break;
    case DDT_IDX:
        for (int i = 0; i < n->n; ++i) {
            ib[i] = (int)n->v2[i];
            id[i] = (int)n->v1[i];
        }
        *failed_call = "MPI_Type_indexed";
        rc = MPI_Type_indexed(n->n, ib, id, kt[0], out);
        break;
    case DDT_IDXB:
        for (int i = 0; i < n->n; ++i) {
            id[i] = (int)n->v1[i];
        }
        *failed_call = "MPI_Type_create_indexed_block";
        rc = MPI_Type_create_indexed_block(n->n, (int)n->b, id, kt[0], out);
        break;
    case DDT_RESIZED:
        *failed_call = "MPI_Type_create_resized";
        rc = MPI_Type_create_resized(kt[0], (MPI_Aint)n->a, (MPI_Aint)n->b, out);
        break;
    case DDT_STRUCT:
        for (int i = 0; i < n->n; ++i) {
            ib[i] = (int)n->v2[i];
            ad[i] = (MPI_Aint)n->v1[i];
        }
        *failed_call = "MPI_Type_create_struct";
        rc = MPI_Type_create_struct(n->n, ib, ad, kt, out);
        break;
    case DDT_SUBARRAY: {
        int sz[n->n], sub[n->n], st[n->n];
        for (int d = 0; d < n->n; ++d) {
            sz[d] = (int)n->v1[d];
            sub[d] = (int)n->v2[d];
            st[d] = (int)n->v3[d];
        }
        *failed_call = "MPI_Type_create_subarray";
        rc = MPI_Type_create_subarray(n->n, sz, sub, st, MPI_ORDER_C, kt[0], out);
        break;
    }
    case DDT_PRIM:
        break;
    }
    free(ib);
    free(id);
    free(ad);
out:
    for (int i = 0; i < built; ++i) {
        if (n->kids[i]->kind != DDT_PRIM && kt[i] != MPI_DATATYPE_NULL) {
            MPI_Type_free(&kt[i]);
        }
    }
    return rc;
}

/* ---- type map ---- */

static void walk(const ddt_node *n, long base, ddt_block_fn fn, void *ctx)
{
    const ddt_node *k = n->kids ? n->kids[0] : NULL;
    const long e = k ? extent_of(k) : 0;
    switch (n->kind) {
    case DDT_PRIM:
        fn(ctx, base, n->size);
        break;
    case DDT_CTG:
        for (long j = 0; j < n->a; ++j) {
            walk(k, base + j * e, fn, ctx);
        }
        break;
    case DDT_VEC:
    case DDT_HVEC: {
        const long s = n->kind == DDT_VEC ? n->c * e : n->c;
        for (long i = 0; i < n->a; ++i) {
            for (long j = 0; j < n->b; ++j) {
                walk(k, base + i * s + j * e, fn, ctx);
            }
        }
        break;
    }
    case DDT_HIDX:
    case DDT_IDX:
        for (int i = 0; i < n->n; ++i) {
            const long d = n->kind == DDT_IDX ? n->v1[i] * e : n->v1[i];
            for (long j = 0; j < n->v2[i]; ++j) {
                walk(k, base + d + j * e, fn, ctx);
            }
        }
        break;
    case DDT_IDXB:
        for (int i = 0; i < n->n; ++i) {
            for (long j = 0; j < n->b; ++j) {
                walk(k, base + n->v1[i] * e + j * e, fn, ctx);
            }
        }
        break;
    case DDT_RESIZED:
        walk(k, base, fn, ctx);
        break;
    case DDT_STRUCT:
        for (int i = 0; i < n->n; ++i) {
            for (long j = 0; j < n->v2[i]; ++j) {
                walk(n->kids[i], base + n->v1[i] + j * extent_of(n->kids[i]), fn, ctx);
            }
        }
        break;
    case DDT_SUBARRAY: {
        long idx[n->n];
        memset(idx, 0, sizeof idx);
        for (;;) {
            long off = 0;
            for (int d = 0; d < n->n; ++d) {
                off += (n->v3[d] + idx[d]) * sub_stride(n, d);
            }
            walk(k, base + off * e, fn, ctx);
            int d = n->n - 1;
            while (d >= 0 && ++idx[d] == n->v2[d]) {
                idx[d] = 0;
                --d;
            }
            if (d < 0) {
                break;
            }
        }
        break;
    }
    }
}

void ddt_walk(const ddt_node *node, long count, ddt_block_fn fn, void *ctx)
{
    for (long i = 0; i < count; ++i) {
        walk(node, i * extent_of(node), fn, ctx);
    }
}

/* ---- formatting ---- */

typedef struct {
    char *s;
    size_t n, cap;
} sbuf;

static void put(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int w = vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
        va_end(ap);
        if (w >= 0 && (size_t)w < b->cap - b->n) {
            b->n += (size_t)w;
            return;
        }
        b->cap = 2 * b->cap + (size_t)(w > 0 ? w : 0) + 64;
        b->s = realloc(b->s, b->cap);
    }
}

static void format(sbuf *b, const ddt_node *n)
{
    switch (n->kind) {
    case DDT_PRIM:
        put(b, "%s", kPrims[n->prim].name);
        return;
    case DDT_CTG:
        put(b, "ctg(%ld)", n->a);
        break;
    case DDT_VEC:
    case DDT_HVEC:
        put(b, "%s(%ld %ld %ld)", kind_name(n->kind), n->a, n->b, n->c);
        break;
    case DDT_HIDX:
    case DDT_IDX:
        put(b, "%s(", kind_name(n->kind));
        for (int i = 0; i < n->n; ++i) {
            put(b, "%s%ld,%ld", i ? " " : "", n->v1[i], n->v2[i]);
        }
        put(b, ")");
        break;
    case DDT_IDXB:
        put(b, "idxb(%ld:", n->b);
        for (int i = 0; i < n->n; ++i) {
            put(b, " %ld", n->v1[i]);
        }
        put(b, ")");
        break;
    case DDT_RESIZED:
        put(b, "resized(%ld,%ld)", n->a, n->b);
        break;
    case DDT_STRUCT:
        put(b, "struct(");
        for (int i = 0; i < n->n; ++i) {
            put(b, "%s%ld,%ld[", i ? " " : "", n->v1[i], n->v2[i]);
            format(b, n->kids[i]);
            put(b, "]");
        }
        put(b, ")");
        return;
    case DDT_SUBARRAY:
        put(b, "subarray(");
        for (int d = 0; d < n->n; ++d) {
            put(b, "%s%ld,%ld,%ld", d ? " " : "", n->v1[d], n->v2[d], n->v3[d]);
        }
        put(b, ")");
        break;
    }
    put(b, "[");
    format(b, n->kids[0]);
    put(b, "]");
}

char *ddt_format(const ddt_node *node)
{
    sbuf b = {malloc(128), 0, 128};
    b.s[0] = '\0';
    format(&b, node);
    return b.s;
}
