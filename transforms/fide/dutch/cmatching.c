/* The Dutch engine's weighted-matching graph, compiled: the same class as
 * transforms/fide/dutch/matching.py's MatchingGraph (same methods, same meaning), for large
 * fields. Written for this project from the textbook primal-dual method (Edmonds 1965; Galil
 * 1986), following matching.py step by step; no third-party code.
 *
 * Weights are the engine's lexicographic bit fields: hundreds of bits. They are held as
 * fixed-width two's-complement integers of K 64-bit limbs (K grows when a wider weight
 * arrives), in a table of the distinct weights; the n x n matrix holds 32-bit indexes into
 * it (a large field has millions of edges and few distinct weights). Weights are stored
 * scaled by 2^scale_log2 (matching.py's ``_scale``): doubled when half an S-S slack would
 * not be integral.
 *
 * Where matching.py iterates a vertex's neighbours in set order, this iterates them in
 * vertex order; every optimum it returns is a maximum-weight matching with optimal duals,
 * and the engine's choices read only what every optimum shares (tests compare the pairings
 * of both on generated fields).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "cmatching assumes a little-endian machine"
#endif

typedef uint64_t limb;
typedef unsigned __int128 u128;
typedef __int128 s128;

/* ---------------------------------------------------------------- K-limb integers --- */

static inline void n_copy(limb *r, const limb *a, int K) { memcpy(r, a, sizeof(limb) * K); }
static inline void n_zero(limb *r, int K) { memset(r, 0, sizeof(limb) * K); }

static inline void n_add(limb *r, const limb *a, const limb *b, int K) {
    u128 c = 0;
    for (int i = 0; i < K; i++) { c += (u128)a[i] + b[i]; r[i] = (limb)c; c >>= 64; }
}

static inline void n_sub(limb *r, const limb *a, const limb *b, int K) {
    s128 c = 0;
    for (int i = 0; i < K; i++) { c += (s128)a[i] - (s128)b[i]; r[i] = (limb)c; c >>= 64; }
}

/* r = a + b - c */
static inline void n_slack(limb *r, const limb *a, const limb *b, const limb *c, int K) {
    s128 acc = 0;
    for (int i = 0; i < K; i++) {
        acc += (s128)a[i] + (s128)b[i] - (s128)c[i];
        r[i] = (limb)acc;
        acc >>= 64;
    }
}

static inline int n_isneg(const limb *a, int K) { return (int64_t)a[K - 1] < 0; }

static inline int n_iszero(const limb *a, int K) {
    for (int i = 0; i < K; i++) if (a[i]) return 0;
    return 1;
}

static inline int n_sign(const limb *a, int K) {
    if (n_isneg(a, K)) return -1;
    return n_iszero(a, K) ? 0 : 1;
}

static inline int n_cmp(const limb *a, const limb *b, int K) {
    int64_t ta = (int64_t)a[K - 1], tb = (int64_t)b[K - 1];
    if (ta != tb) return ta < tb ? -1 : 1;
    for (int i = K - 2; i >= 0; i--)
        if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
    return 0;
}

static inline void n_shl1(limb *a, int K) {
    for (int i = K - 1; i > 0; i--) a[i] = (a[i] << 1) | (a[i - 1] >> 63);
    a[0] <<= 1;
}

static inline void n_sar1(limb *a, int K) {
    for (int i = 0; i < K - 1; i++) a[i] = (a[i] >> 1) | (a[i + 1] << 63);
    a[K - 1] = (limb)((int64_t)a[K - 1] >> 1);
}

static inline void n_addsmall(limb *a, int64_t x, int K) {
    s128 c = x;
    for (int i = 0; i < K; i++) { c += (s128)a[i]; a[i] = (limb)c; c >>= 64; }
}

/* bits of |a| (a value fits in K limbs if bits < 64K) */
static int n_bits(const limb *a, int K) {
    int neg = n_isneg(a, K);
    for (int i = K - 1; i >= 0; i--) {
        limb x = neg ? ~a[i] : a[i];
        if (x) return 64 * i + (64 - __builtin_clzll(x));
    }
    return 0;
}

/* copy with sign extension / truncation from width Ka to Kb */
static void n_resize(limb *dst, int Kb, const limb *src, int Ka) {
    limb ext = n_isneg(src, Ka) ? ~(limb)0 : 0;
    for (int i = 0; i < Kb; i++) dst[i] = i < Ka ? src[i] : ext;
}

/* ---------------------------------------------------------------- the graph --------- */

typedef struct {
    PyObject_HEAD
    int n;
    int K;
    int scale_log2;
    uint32_t *idx;        /* n*n indexes into the weight table */
    limb *tab;            /* tabcap*K scaled weights */
    uint8_t *tabpos;      /* weight > 0 (an edge) */
    int ntab, tabcap;
    int maxbits;          /* widest unscaled weight seen */
    PyObject *lookup;     /* dict: weight (int) -> index (int) */
    PyObject *objs;       /* list: index -> weight (int) */
    PyObject *cache_obj[64];
    int cache_idx[64];
    PyObject *fixed;      /* dict */
    long solves;
    int has_mate;
    int *mate;            /* warm start: n, -1 unmatched */
    limb *dual;           /* warm start: n*K vertex duals, blossoms dissolved */
    limb *true_u;         /* n*K the last optimum's own vertex duals */
    uint8_t *in_blossom;  /* n: inside a blossom of positive dual at the last optimum */
    uint8_t *dirty, *raised;
    /* scratch for rotate_in */
    limb *rdist; int *rback_a, *rback_c; uint8_t *rhas, *rin, *rnext;
} Graph;

static PyTypeObject GraphType;

#define W(g, i, j) ((g)->tab + (size_t)(g)->idx[(size_t)(i) * (g)->n + (j)] * (g)->K)
#define POS(g, i, j) ((g)->tabpos[(g)->idx[(size_t)(i) * (g)->n + (j)]])

static int grow_limbs(Graph *g, int newK, limb **extra, int nextra_count, int *extra_sizes);

/* make room for values of ``bits`` bits (unscaled); holds the GIL (sets MemoryError) */
static int ensure_bits(Graph *g, int bits, limb **extra, int nex, int *exsz) {
    int need = bits + g->scale_log2 + 4;
    if (need < 64 * g->K) return 0;
    if (grow_limbs(g, need / 64 + 2, extra, nex, exsz) < 0) { PyErr_NoMemory(); return -1; }
    return 0;
}

static int resize_array(limb **p, int count, int oldK, int newK) {
    if (*p == NULL) return 0;
    limb *q = malloc(sizeof(limb) * (size_t)count * newK + 8);
    if (!q) return -1;  /* (may run without the GIL: the caller reports it) */
    for (int i = 0; i < count; i++) n_resize(q + (size_t)i * newK, newK, *p + (size_t)i * oldK, oldK);
    free(*p);
    *p = q;
    return 0;
}

static int grow_limbs(Graph *g, int newK, limb **extra, int nex, int *exsz) {
    int oldK = g->K;
    if (newK <= oldK) return 0;
    if (resize_array(&g->tab, g->tabcap, oldK, newK) < 0) return -1;
    if (resize_array(&g->dual, g->n, oldK, newK) < 0) return -1;
    if (resize_array(&g->true_u, g->n, oldK, newK) < 0) return -1;
    if (resize_array(&g->rdist, g->n, oldK, newK) < 0) return -1;
    for (int e = 0; e < nex; e++)
        if (resize_array(&extra[e], exsz[e], oldK, newK) < 0) return -1;
    g->K = newK;
    return 0;
}

static int pylong_to_limbs(PyObject *v, limb *out, int K) {
#if PY_VERSION_HEX >= 0x030D0000
    return _PyLong_AsByteArray((PyLongObject *)v, (unsigned char *)out, sizeof(limb) * K, 1, 1, 1);
#else
    return _PyLong_AsByteArray((PyLongObject *)v, (unsigned char *)out, sizeof(limb) * K, 1, 1);
#endif
}

static PyObject *limbs_to_pylong(const limb *a, int K) {
    return _PyLong_FromByteArray((const unsigned char *)a, sizeof(limb) * K, 1, 1);
}

static void n_shl(limb *a, int s, int K) { for (int i = 0; i < s; i++) n_shl1(a, K); }

/* index of weight ``w`` (an int) in the table, adding it if new; -1 on error */
static int intern_weight(Graph *g, PyObject *w) {
    size_t h = ((size_t)w >> 4) & 63;
    if (g->cache_obj[h] == w) return g->cache_idx[h];
    PyObject *key = PyNumber_Index(w);
    if (!key) return -1;
    PyObject *found = PyDict_GetItemWithError(g->lookup, key);
    int k;
    if (found) {
        k = (int)PyLong_AsLong(found);
    } else {
        if (PyErr_Occurred()) { Py_DECREF(key); return -1; }
        int64_t nb = (int64_t)_PyLong_NumBits(key);
        if (nb < 0) { Py_DECREF(key); return -1; }
        if (nb > g->maxbits) g->maxbits = (int)nb;
        if (ensure_bits(g, (int)nb + 1, NULL, 0, NULL) < 0) { Py_DECREF(key); return -1; }
        if (g->ntab == g->tabcap) {
            int cap = g->tabcap * 2;
            limb *t = realloc(g->tab, sizeof(limb) * (size_t)cap * g->K + 8);
            uint8_t *tp = realloc(g->tabpos, cap);
            if (!t || !tp) { Py_DECREF(key); PyErr_NoMemory(); return -1; }
            g->tab = t; g->tabpos = tp; g->tabcap = cap;
        }
        k = g->ntab;
        limb *dst = g->tab + (size_t)k * g->K;
        if (pylong_to_limbs(key, dst, g->K) < 0) { Py_DECREF(key); return -1; }
        n_shl(dst, g->scale_log2, g->K);
        g->tabpos[k] = n_sign(dst, g->K) > 0;
        PyObject *kk = PyLong_FromLong(k);
        if (!kk || PyDict_SetItem(g->lookup, key, kk) < 0 || PyList_Append(g->objs, key) < 0) {
            Py_XDECREF(kk); Py_DECREF(key); return -1;
        }
        Py_DECREF(kk);
        g->ntab++;
    }
    Py_DECREF(key);
    Py_XDECREF(g->cache_obj[h]);
    Py_INCREF(w);
    g->cache_obj[h] = w;
    g->cache_idx[h] = k;
    return k;
}

static inline void set_idx(Graph *g, int i, int j, uint32_t k) {
    size_t a = (size_t)i * g->n + j;
    uint32_t old = g->idx[a];
    if (old == k) return;
    if (n_cmp(g->tab + (size_t)k * g->K, g->tab + (size_t)old * g->K, g->K) > 0)
        g->raised[i] = g->raised[j] = 1;
    g->idx[a] = k;
    g->idx[(size_t)j * g->n + i] = k;
    g->dirty[i] = g->dirty[j] = 1;
}

static int check_vertex(Graph *g, long v) {
    if (v < 0 || v >= g->n) { PyErr_Format(PyExc_IndexError, "vertex %ld out of range", v); return -1; }
    return 0;
}

/* ---------------------------------------------------------------- the solver -------- */

enum { FREE = 0, S = 1, T = 2, MARK = 4 };

typedef struct {
    Graph *g;
    int n, K;
    limb *D;            /* 2n*K duals (vertices, then blossoms) */
    int *mate;
    uint8_t *label;     /* 2n */
    int *lea, *leb;     /* 2n labelend (outside vertex, inside vertex); lea -1 = none */
    int *inb;           /* n: x itself or a blossom holding x; its top-level blossom: top_of() */
    int *parent;        /* 2n */
    int *base;          /* 2n */
    int **ch, **ea, **eb; int *nch;  /* 2n children and the edges between them */
    int *bea;           /* n the S end of each non-S vertex's least-slack edge (-1: none) */
    limb *bsl; long *bep;            /* its slack, and the epoch it was computed in */
    int *sb;            /* n an S vertex's least-slack edge to another S blossom */
    int **tl; int *ntl, *captl; uint8_t *tlok;  /* n tight edges out of each vertex's blossom */
    int *scanned; int nscanned; uint8_t *scanned_flag;  /* scanned since the last adjustment */
    int *unused; int nunused;
    int *queue; int qh, qt, qcap;
    int *leaves; int *stk;           /* scratch n, 2n */
    int *tasks; int ntasks, taskcap; /* augment_blossom tasks, 4 ints each */
    long epoch;
    int rescaled;
    limb *tmp, *tmp2, *delta, *s3;
    int error;
} Solver;

#define DV(sv, v) ((sv)->D + (size_t)(v) * (sv)->K)

static int q_push(Solver *sv, int v) {
    if (sv->qt == sv->qcap) {
        if (sv->qh > 0) {
            memmove(sv->queue, sv->queue + sv->qh, sizeof(int) * (sv->qt - sv->qh));
            sv->qt -= sv->qh; sv->qh = 0;
        } else {
            int cap = sv->qcap * 2;
            int *q = realloc(sv->queue, sizeof(int) * cap);
            if (!q) { sv->error = 1; return -1; }
            sv->queue = q; sv->qcap = cap;
        }
    }
    sv->queue[sv->qt++] = v;
    return 0;
}

/* the top-level blossom holding vertex x (x itself when it is in none). inb[x] names x or a
   blossom holding it: a new blossom does not rename the vertices of its S children (the
   parent links reach it; most of a large blossom is S blossoms nested again and again), and
   the first lookup after it shortens inb[x] to the top. An expansion names the children's
   vertices again (a released blossom is never named). */
static inline int top_of(Solver *sv, int x) {
    int b = sv->inb[x];
    if (sv->parent[b] == -1) return b;
    do b = sv->parent[b]; while (sv->parent[b] != -1);
    sv->inb[x] = b;
    return b;
}

/* the vertices of blossom b into sv->leaves, depth-first; returns their count */
static int leaves_of(Solver *sv, int b) {
    int n = sv->n, cnt = 0;
    if (b < n) { sv->leaves[0] = b; return 1; }
    int top = 0;
    sv->stk[top++] = b;
    while (top) {
        int x = sv->stk[--top];
        if (x < n) sv->leaves[cnt++] = x;
        else for (int k = 0; k < sv->nch[x]; k++) sv->stk[top++] = sv->ch[x][k];
    }
    return cnt;
}

static void assign_label(Solver *sv, int v, int t, int pa, int pb) {
    for (;;) {
        int b = top_of(sv, v);
        sv->label[v] = sv->label[b] = (uint8_t)t;
        sv->lea[v] = sv->lea[b] = pa;
        sv->leb[v] = sv->leb[b] = pb;
        sv->bea[v] = -1;
        if (t == S) {
            int c = leaves_of(sv, b);
            for (int k = 0; k < c; k++) q_push(sv, sv->leaves[k]);
            return;
        }
        int bs = sv->base[b];
        int m = sv->mate[bs];
        v = m; t = S; pa = bs; pb = m;
    }
}

static int scan_blossom(Solver *sv, int v, int w) {
    int *path = sv->stk;  /* (stk is free here: at most n entries) */
    int np = 0, base = -1;
    while (v != -1 || w != -1) {
        int b = top_of(sv, v);
        if (sv->label[b] & MARK) { base = sv->base[b]; break; }
        path[np++] = b;
        sv->label[b] = S | MARK;
        if (sv->lea[b] == -1) v = -1;
        else {
            int t = sv->lea[b];
            int bt = top_of(sv, t);
            v = sv->lea[bt];
        }
        if (w != -1) { int x = v; v = w; w = x; }
    }
    for (int k = 0; k < np; k++) sv->label[path[k]] = S;
    return base;
}

static void add_blossom(Solver *sv, int base, int v, int w) {
    int n = sv->n;
    int *inb = sv->inb;
    int bb = top_of(sv, base), bv = top_of(sv, v), bw = top_of(sv, w);
    int b = sv->unused[--sv->nunused];
    /* the cycle: bb, the path from bv back to bb reversed, then the path from bw */
    int nv = 0, nw = 0;
    for (int x = bv; x != bb; x = top_of(sv, sv->lea[x])) nv++;
    for (int x = bw; x != bb; x = top_of(sv, sv->lea[x])) nw++;
    int L = 1 + nv + nw;
    int *ch = malloc(sizeof(int) * L), *ea = malloc(sizeof(int) * L), *eb = malloc(sizeof(int) * L);
    if (!ch || !ea || !eb) { sv->error = 1; free(ch); free(ea); free(eb); return; }
    ch[0] = bb;
    int k = nv;
    for (int x = bv; x != bb; x = top_of(sv, sv->lea[x])) {
        ch[k] = x;
        /* edge between ch[k-1] and ch[k]: (vertex in ch[k-1], vertex in ch[k]) */
        ea[k - 1] = sv->lea[x];
        eb[k - 1] = sv->leb[x];
        k--;
    }
    ea[nv] = v; eb[nv] = w;
    k = nv + 1;
    for (int x = bw; x != bb; x = top_of(sv, sv->lea[x])) {
        ch[k] = x;
        /* edge between ch[k] and ch[k+1] (or ch[0]) */
        ea[k] = sv->leb[x];
        eb[k] = sv->lea[x];
        k++;
    }
    sv->ch[b] = ch; sv->ea[b] = ea; sv->eb[b] = eb; sv->nch[b] = L;
    sv->base[b] = base;
    sv->parent[b] = -1;
    for (int c = 0; c < L; c++) sv->parent[ch[c]] = b;
    sv->label[b] = S;
    sv->lea[b] = sv->lea[bb];
    sv->leb[b] = sv->leb[bb];
    n_zero(DV(sv, b), sv->K);
    for (int c = L - 1; c >= 0; c--) {
        if (ch[c] < n) { inb[ch[c]] = b; if (sv->label[ch[c]] == T) q_push(sv, ch[c]); continue; }
        if (sv->label[ch[c]] != T) continue;  /* (its vertices reach b through the parents) */
        int cnt = leaves_of(sv, ch[c]);
        for (int q = 0; q < cnt; q++) {
            q_push(sv, sv->leaves[q]);
            inb[sv->leaves[q]] = b;
        }
    }
}

static void release_blossom(Solver *sv, int b) {
    sv->label[b] = FREE;
    sv->lea[b] = sv->leb[b] = -1;
    free(sv->ch[b]); free(sv->ea[b]); free(sv->eb[b]);
    sv->ch[b] = sv->ea[b] = sv->eb[b] = NULL;
    sv->nch[b] = 0;
    sv->base[b] = -1;
    sv->unused[sv->nunused++] = b;
}

static inline int pmod(int j, int L) { int r = j % L; return r < 0 ? r + L : r; }

static void expand_blossom(Solver *sv, int b, int endstage) {
    int n = sv->n;
    /* iterative descent: (blossom, next child) pairs on the task array */
    int cap = 64, top = 0;
    int *st = malloc(sizeof(int) * 2 * cap);
    if (!st) { sv->error = 1; return; }
    st[0] = b; st[1] = 0; top = 1;
    while (top) {
        int tb = st[2 * (top - 1)], i = st[2 * (top - 1) + 1];
        if (i < sv->nch[tb]) {
            st[2 * (top - 1) + 1] = i + 1;
            int s = sv->ch[tb][i];
            sv->parent[s] = -1;
            if (s < n) sv->inb[s] = s;
            else if (endstage && n_iszero(DV(sv, s), sv->K)) {
                if (top == cap) {
                    cap *= 2;
                    int *q = realloc(st, sizeof(int) * 2 * cap);
                    if (!q) { free(st); sv->error = 1; return; }
                    st = q;
                }
                st[2 * top] = s; st[2 * top + 1] = 0; top++;
            } else {
                int cnt = leaves_of(sv, s);
                for (int q = 0; q < cnt; q++) sv->inb[sv->leaves[q]] = s;
            }
        } else {
            top--;
            if (top) release_blossom(sv, tb);
        }
    }
    free(st);
    if (!endstage && sv->label[b] == T) {
        int *ch = sv->ch[b], *ea = sv->ea[b], *eb = sv->eb[b];
        int L = sv->nch[b];
        int entry = top_of(sv, sv->leb[b]);
        int j = 0;
        while (ch[j] != entry) j++;
        int jstep = (j & 1) ? 1 : -1;
        int pa = sv->lea[b], pb = sv->leb[b];
        while (pmod(j, L) != 0) {
            int y = pb;
            sv->label[y] = FREE;
            sv->label[top_of(sv, y)] = FREE;
            assign_label(sv, y, T, pa, pb);
            j += jstep;
            if (jstep == 1) { pa = ea[pmod(j, L)]; pb = eb[pmod(j, L)]; }
            else { int k = pmod(j - 1, L); pa = eb[k]; pb = ea[k]; }
            j += jstep;
        }
        int bv = ch[0];
        sv->label[pb] = sv->label[bv] = T;
        sv->lea[pb] = sv->lea[bv] = pa;
        sv->leb[pb] = sv->leb[bv] = pb;
        if (bv < n) sv->bea[bv] = -1;
        j += jstep;
        while (ch[pmod(j, L)] != entry) {
            bv = ch[pmod(j, L)];
            if (sv->label[bv] == S) { j += jstep; continue; }
            int found = -1;
            int cnt = leaves_of(sv, bv);
            for (int q = 0; q < cnt; q++)
                if (sv->label[sv->leaves[q]] != FREE) { found = sv->leaves[q]; break; }
            if (found != -1) {
                sv->label[found] = FREE;
                sv->label[sv->mate[sv->base[bv]]] = FREE;
                assign_label(sv, found, T, sv->lea[found], sv->leb[found]);
            }
            j += jstep;
        }
    }
    release_blossom(sv, b);
}

enum { ROTATE = 0, PAIR = 1, REBASE = 2 };

static int task_push(Solver *sv, int op, int b, int v, int i) {
    if (sv->ntasks == sv->taskcap) {
        int cap = sv->taskcap * 2;
        int *q = realloc(sv->tasks, sizeof(int) * 4 * cap);
        if (!q) { sv->error = 1; return -1; }
        sv->tasks = q; sv->taskcap = cap;
    }
    int *t = sv->tasks + 4 * sv->ntasks++;
    t[0] = op; t[1] = b; t[2] = v; t[3] = i;
    return 0;
}

static void rotate_arr(Solver *sv, int *a, int L, int i) {
    if (i == 0) return;
    int *tmp = malloc(sizeof(int) * L);
    if (!tmp) { sv->error = 1; return; }
    for (int k = 0; k < L; k++) tmp[k] = a[(k + i) % L];
    memcpy(a, tmp, sizeof(int) * L);
    free(tmp);
}

static void augment_blossom(Solver *sv, int b0, int v0) {
    int n = sv->n;
    int *todo = NULL; int ntodo = 0, todocap = 0;
    sv->ntasks = 0;
    task_push(sv, ROTATE, b0, v0, 0);
    while (sv->ntasks && !sv->error) {
        int *t = sv->tasks + 4 * --sv->ntasks;
        int op = t[0], b = t[1], v = t[2], i = t[3];
        if (op == PAIR) { sv->mate[b] = v; sv->mate[v] = b; continue; }
        if (op == REBASE) {
            rotate_arr(sv, sv->ch[b], sv->nch[b], i);
            rotate_arr(sv, sv->ea[b], sv->nch[b], i);
            rotate_arr(sv, sv->eb[b], sv->nch[b], i);
            sv->base[b] = v;
            continue;
        }
        int tt = v;
        while (sv->parent[tt] != b) tt = sv->parent[tt];
        int *ch = sv->ch[b], *ea = sv->ea[b], *eb = sv->eb[b];
        int L = sv->nch[b];
        int j = 0;
        while (ch[j] != tt) j++;
        i = j;
        int jstep = (i & 1) ? 1 : -1;
        ntodo = 0;
#define TODO(a_, b_, c_, d_) do { \
            if (ntodo == todocap) { todocap = todocap ? 2 * todocap : 64; \
                int *q_ = realloc(todo, sizeof(int) * 4 * todocap); \
                if (!q_) { sv->error = 1; free(todo); return; } todo = q_; } \
            todo[4 * ntodo] = (a_); todo[4 * ntodo + 1] = (b_); todo[4 * ntodo + 2] = (c_); \
            todo[4 * ntodo + 3] = (d_); ntodo++; } while (0)
        if (tt >= n) TODO(ROTATE, tt, v, 0);
        while (pmod(j, L) != 0) {
            j += 2 * jstep;
            int x, y;
            if (jstep == 1) { int k = pmod(j - 1, L); x = ea[k]; y = eb[k]; }
            else { int k = pmod(j, L); y = ea[k]; x = eb[k]; }
            int cx = ch[pmod(j - jstep, L)], cy = ch[pmod(j, L)];
            if (cx >= n) TODO(ROTATE, cx, x, 0);
            if (cy >= n) TODO(ROTATE, cy, y, 0);
            TODO(PAIR, x, y, 0);
        }
        TODO(REBASE, b, v, i);
#undef TODO
        for (int k = ntodo - 1; k >= 0; k--)
            task_push(sv, todo[4 * k], todo[4 * k + 1], todo[4 * k + 2], todo[4 * k + 3]);
    }
    free(todo);
}

static void rematch_path(Solver *sv, int s, int j) {
    int n = sv->n;
    for (;;) {
        int bs = top_of(sv, s);
        if (bs >= n) augment_blossom(sv, bs, s);
        sv->mate[s] = j;
        if (sv->lea[bs] == -1) break;
        int t = sv->lea[bs];
        int bt = top_of(sv, t);
        int s2 = sv->lea[bt], j2 = sv->leb[bt];
        if (bt >= n) augment_blossom(sv, bt, j2);
        sv->mate[j2] = s2;
        s = s2; j = j2;
    }
}

static void augment_matching(Solver *sv, int v, int w) {
    rematch_path(sv, v, w);
    rematch_path(sv, w, v);
}

/* slack of the recorded least-slack edge of non-S vertex x into sv->tmp2 */
static const limb *best_slack(Solver *sv, int x) {
    int K = sv->K;
    limb *c = sv->bsl + (size_t)x * K;
    if (sv->bep[x] != sv->epoch) {
        int a = sv->bea[x];
        n_slack(c, DV(sv, a), DV(sv, x), W(sv->g, a, x), K);
        sv->bep[x] = sv->epoch;
    }
    return c;
}

static void rescale(Solver *sv) {
    Graph *g = sv->g;
    int K = sv->K;
    for (int k = 0; k < g->ntab; k++) n_shl1(g->tab + (size_t)k * K, K);
    for (int v = 0; v < 2 * sv->n; v++) n_shl1(DV(sv, v), K);
    g->scale_log2++;
    sv->rescaled++;
    sv->epoch++;
}

/* keep a factor 2 of headroom for a rescale: grow every K-wide array if needed */
static int headroom(Solver *sv) {
    Graph *g = sv->g;
    int K = sv->K, bits = 0;
    for (int v = 0; v < 2 * sv->n; v++) { int b = n_bits(DV(sv, v), K); if (b > bits) bits = b; }
    int wb = g->maxbits + g->scale_log2;
    if (wb > bits) bits = wb;
    if (bits + 6 < 64 * K) return 0;
    int newK = (bits + 6) / 64 + 2;
    limb *arrs[6] = {sv->D, sv->bsl, sv->tmp, sv->tmp2, sv->delta, sv->s3};
    int sizes[6] = {2 * sv->n, sv->n, 1, 1, 1, 1};
    if (grow_limbs(g, newK, arrs, 6, sizes) < 0) return -1;
    sv->D = arrs[0]; sv->bsl = arrs[1]; sv->tmp = arrs[2]; sv->tmp2 = arrs[3];
    sv->delta = arrs[4]; sv->s3 = arrs[5];
    sv->K = newK;
    return 0;
}

/* the least S-S slack from S vertex v to another S blossom: sb[v] and its slack in out */
static void rescan_s(Solver *sv, int v, limb *out) {
    Graph *g = sv->g;
    int n = sv->n, K = sv->K, bv = top_of(sv, v);
    const uint32_t *row = g->idx + (size_t)v * n;
    const limb *dv = DV(sv, v);
    sv->sb[v] = -1;
    for (int x = 0; x < n; x++) {
        if (!g->tabpos[row[x]]) continue;
        int bx = top_of(sv, x);
        if (bx == bv || sv->label[bx] != S) continue;
        n_slack(sv->tmp, dv, DV(sv, x), g->tab + (size_t)row[x] * K, K);
        if (sv->sb[v] == -1 || n_cmp(sv->tmp, out, K) < 0) { sv->sb[v] = x; n_copy(out, sv->tmp, K); }
    }
}

/* v's tight edges to vertices outside its blossom, in vertex order. Valid until the next dual
   adjustment (duals change only there) or the end-of-stage expansion of v's blossom (blossoms
   only grow in between, and the scan skips neighbours that joined v's blossom). */
static int tight_list(Solver *sv, int v) {
    Graph *g = sv->g;
    int n = sv->n, K = sv->K, bv = top_of(sv, v);
    const uint32_t *row = g->idx + (size_t)v * n;
    const limb *dv = DV(sv, v);
    int cnt = 0;
    for (int w = 0; w < n; w++) {
        uint32_t k = row[w];
        if (!g->tabpos[k]) continue;
        /* duals stay feasible (every slack >= 0), so tight means a slack of exactly 0, and a
           lowest limb of the sum that is not 0 already says it is not (most edges) */
        const limb *wk = g->tab + (size_t)k * K, *dw = DV(sv, w);
        if (dv[0] + dw[0] != wk[0] || top_of(sv, w) == bv) continue;
        n_slack(sv->tmp, dv, dw, wk, K);
        if (n_sign(sv->tmp, K) > 0) continue;
        if (cnt == sv->captl[v]) {
            int cap = cnt ? 2 * cnt : 8;
            int *q = realloc(sv->tl[v], sizeof(int) * cap);
            if (!q) { sv->error = 1; return -1; }
            sv->tl[v] = q; sv->captl[v] = cap;
        }
        sv->tl[v][cnt++] = w;
    }
    sv->ntl[v] = cnt;
    sv->tlok[v] = 1;
    return 0;
}

/* the bookkeeping the scan of S vertex v left for the dual adjustment: v's least-slack edge
   to another S blossom (sb), and for each non-S neighbour its least-slack edge from an S
   vertex (bea), with the labels and duals of now */
static void deferred_scan(Solver *sv, int v) {
    Graph *g = sv->g;
    int n = sv->n, K = sv->K, bv = top_of(sv, v);
    const uint32_t *row = g->idx + (size_t)v * n;
    const limb *dv = DV(sv, v);
    limb *s = sv->tmp, *sbs = sv->s3;
    sv->sb[v] = -1;
    for (int x = 0; x < n; x++) {
        uint32_t k = row[x];
        if (!g->tabpos[k]) continue;
        int bx = top_of(sv, x);
        if (bx == bv) continue;
        if (sv->label[bx] == S) {
            n_slack(s, dv, DV(sv, x), g->tab + (size_t)k * K, K);
            if (sv->sb[v] == -1 || n_cmp(s, sbs, K) < 0) { sv->sb[v] = x; n_copy(sbs, s, K); }
        } else if (sv->label[x] == FREE) {
            n_slack(s, dv, DV(sv, x), g->tab + (size_t)k * K, K);
            if (n_sign(s, K) <= 0) continue;
            if (sv->bea[x] == -1 || n_cmp(s, best_slack(sv, x), K) < 0) {
                sv->bea[x] = v;
                n_copy(sv->bsl + (size_t)x * K, s, K);
                sv->bep[x] = sv->epoch;
            }
        }
    }
}

static void solver_run(Solver *sv) {
    Graph *g = sv->g;
    int n = sv->n;
    if (n == 0) return;
    for (;;) {
        int K = sv->K;
        memset(sv->label, FREE, 2 * n);
        for (int v = 0; v < 2 * n; v++) sv->lea[v] = sv->leb[v] = -1;
        for (int v = 0; v < n; v++) { sv->bea[v] = -1; sv->sb[v] = -1; }
        sv->qh = sv->qt = 0;
        for (int k = 0; k < sv->nscanned; k++) sv->scanned_flag[sv->scanned[k]] = 0;
        sv->nscanned = 0;
        int roots = 0;
        for (int v = 0; v < n; v++)
            if (sv->mate[v] == -1 && n_sign(DV(sv, v), K) > 0 && sv->label[top_of(sv, v)] == FREE) {
                assign_label(sv, v, S, -1, -1);
                roots = 1;
            }
        if (!roots) break;
        int augmented = 0;
        for (;;) {
            K = sv->K;
            while (sv->qh < sv->qt && !augmented && !sv->error) {
                int v = sv->queue[sv->qh++];
                int bv = top_of(sv, v);
                if (!sv->scanned_flag[v]) { sv->scanned_flag[v] = 1; sv->scanned[sv->nscanned++] = v; }
                if (!sv->tlok[v] && tight_list(sv, v) < 0) return;
                /* only tight edges act during the scan; the rest waits for the next dual
                   adjustment (most stages end in an augmentation and never need it) */
                int *tl = sv->tl[v], ntl = sv->ntl[v];
                for (int q = 0; q < ntl; q++) {
                    int w = tl[q];
                    int bw = top_of(sv, w);
                    if (bw == bv) continue;
                    int lbw = sv->label[bw];
                    if (lbw == FREE) {
                        if (sv->mate[sv->base[bw]] == -1) {
                            augment_matching(sv, v, w);
                            augmented = 1;
                            break;
                        }
                        assign_label(sv, w, T, v, w);
                    } else if (lbw == S) {
                        int b0 = scan_blossom(sv, v, w);
                        if (b0 >= 0) {
                            add_blossom(sv, b0, v, w);
                            bv = top_of(sv, v);
                        } else {
                            augment_matching(sv, v, w);
                            augmented = 1;
                            break;
                        }
                    } else if (sv->label[w] == FREE) {
                        sv->label[w] = T;
                        sv->lea[w] = v;
                        sv->leb[w] = w;
                    }
                }
            }
            if (augmented || sv->error) break;
            /* dual adjustment */
            if (headroom(sv) < 0) { sv->error = 1; return; }
            K = sv->K;
            /* the vertices scanned since the last adjustment: their least-slack edges to
               non-S vertices (delta2) and to other S blossoms (delta3), by today's labels */
            for (int k = 0; k < sv->nscanned; k++) {
                int v = sv->scanned[k];
                sv->scanned_flag[v] = 0;
                deferred_scan(sv, v);
            }
            sv->nscanned = 0;
            int have3 = 0, e3 = -1;
            limb *s3 = sv->s3, *tmp2 = sv->tmp2;
            for (int v = 0; v < n; v++) {
                int x = sv->sb[v];
                if (x == -1 || sv->label[top_of(sv, v)] != S || top_of(sv, x) == top_of(sv, v)) continue;
                n_slack(tmp2, DV(sv, v), DV(sv, x), W(g, v, x), K);
                if (!have3 || n_cmp(tmp2, s3, K) < 0) { have3 = 1; e3 = v; n_copy(s3, tmp2, K); }
            }
            for (int v = 0; v < n; v++) {
                int x = sv->sb[v];
                if (x == -1 || sv->label[top_of(sv, v)] != S || top_of(sv, x) != top_of(sv, v)) continue;
                /* its edge became internal: its old slack is a lower bound of the new one */
                n_slack(tmp2, DV(sv, v), DV(sv, x), W(g, v, x), K);
                if (have3 && n_cmp(tmp2, s3, K) >= 0) continue;
                rescan_s(sv, v, tmp2);
                if (sv->sb[v] != -1 && (!have3 || n_cmp(tmp2, s3, K) < 0)) {
                    have3 = 1; e3 = v; n_copy(s3, tmp2, K);
                }
            }
            if (have3 && (s3[0] & 1)) {
                rescale(sv);
                n_shl1(s3, K);
            }
            int dtype = 1, dvertex = -1, d2v = -1, dblossom = -1;
            limb *delta = sv->delta;
            for (int v = 0; v < n; v++)
                if (sv->label[top_of(sv, v)] == S && (dvertex == -1 || n_cmp(DV(sv, v), delta, K) < 0)) {
                    dvertex = v; n_copy(delta, DV(sv, v), K);
                }
            for (int v = 0; v < n; v++) {
                if (sv->bea[v] == -1 || sv->label[top_of(sv, v)] != FREE) continue;
                const limb *d = best_slack(sv, v);
                if (n_cmp(d, delta, K) < 0) { dtype = 2; d2v = v; n_copy(delta, d, K); }
            }
            if (have3) {
                n_copy(tmp2, s3, K);
                n_sar1(tmp2, K);
                if (n_cmp(tmp2, delta, K) < 0) { dtype = 3; n_copy(delta, tmp2, K); }
            }
            for (int b = n; b < 2 * n; b++)
                if (sv->base[b] >= 0 && sv->parent[b] == -1 && sv->label[b] == T
                        && n_cmp(DV(sv, b), delta, K) < 0) {
                    dtype = 4; dblossom = b; n_copy(delta, DV(sv, b), K);
                }
            for (int v = 0; v < n; v++) {
                int lb = sv->label[top_of(sv, v)];
                if (lb == S) n_sub(DV(sv, v), DV(sv, v), delta, K);
                else if (lb == T) n_add(DV(sv, v), DV(sv, v), delta, K);
            }
            for (int b = n; b < 2 * n; b++)
                if (sv->base[b] >= 0 && sv->parent[b] == -1) {
                    if (sv->label[b] == S) n_add(DV(sv, b), DV(sv, b), delta, K);
                    else if (sv->label[b] == T) n_sub(DV(sv, b), DV(sv, b), delta, K);
                }
            sv->epoch++;
            memset(sv->tlok, 0, n);
            if (dtype == 1) {
                if (sv->mate[dvertex] != -1) rematch_path(sv, dvertex, -1);
                break;
            }
            if (dtype == 2) q_push(sv, sv->bea[d2v]);
            else if (dtype == 3) q_push(sv, e3);
            else expand_blossom(sv, dblossom, 0);
        }
        if (sv->error) return;
        for (int b = n; b < 2 * n; b++)
            if (sv->parent[b] == -1 && sv->base[b] >= 0 && sv->label[b] == S
                    && n_iszero(DV(sv, b), sv->K)) {
                /* (their tight lists left out the neighbours inside b) */
                int cnt = leaves_of(sv, b);
                for (int q = 0; q < cnt; q++) sv->tlok[sv->leaves[q]] = 0;
                expand_blossom(sv, b, 1);
            }
    }
}

static void solver_free(Solver *sv) {
    if (sv->ch) for (int b = 0; b < 2 * sv->n; b++) { free(sv->ch[b]); free(sv->ea[b]); free(sv->eb[b]); }
    free(sv->D); free(sv->mate); free(sv->label); free(sv->lea); free(sv->leb); free(sv->inb);
    free(sv->parent); free(sv->base); free(sv->ch); free(sv->ea); free(sv->eb); free(sv->nch);
    free(sv->bea); free(sv->bsl); free(sv->bep); free(sv->sb); free(sv->unused);
    free(sv->queue); free(sv->leaves); free(sv->stk); free(sv->tasks);
    free(sv->tmp); free(sv->tmp2); free(sv->delta); free(sv->s3);
    if (sv->tl) for (int v = 0; v < 2 * sv->n; v++) free(sv->tl[v]);
    free(sv->tl); free(sv->ntl); free(sv->captl); free(sv->tlok); free(sv->scanned);
    free(sv->scanned_flag);
}

static int solver_init(Solver *sv, Graph *g) {
    memset(sv, 0, sizeof(*sv));
    int n = sv->n = g->n, K = sv->K = g->K;
    sv->g = g;
    size_t n2 = (size_t)2 * n + 1;
    sv->D = calloc(n2 * K + 1, sizeof(limb));
    sv->mate = malloc(sizeof(int) * n2);
    sv->label = calloc(n2, 1);
    sv->lea = malloc(sizeof(int) * n2); sv->leb = malloc(sizeof(int) * n2);
    sv->inb = malloc(sizeof(int) * n2);
    sv->parent = malloc(sizeof(int) * n2); sv->base = malloc(sizeof(int) * n2);
    sv->ch = calloc(n2, sizeof(int *)); sv->ea = calloc(n2, sizeof(int *));
    sv->eb = calloc(n2, sizeof(int *)); sv->nch = calloc(n2, sizeof(int));
    sv->bea = malloc(sizeof(int) * n2);
    sv->bsl = calloc(n2 * K + 1, sizeof(limb)); sv->bep = calloc(n2, sizeof(long));
    sv->sb = malloc(sizeof(int) * n2);
    sv->tl = calloc(n2, sizeof(int *)); sv->ntl = calloc(n2, sizeof(int));
    sv->captl = calloc(n2, sizeof(int)); sv->tlok = calloc(n2, 1);
    sv->scanned = malloc(sizeof(int) * n2); sv->scanned_flag = calloc(n2, 1);
    sv->unused = malloc(sizeof(int) * n2);
    sv->qcap = 2 * n + 16; sv->queue = malloc(sizeof(int) * sv->qcap);
    sv->leaves = malloc(sizeof(int) * n2); sv->stk = malloc(sizeof(int) * 2 * n2);
    sv->taskcap = 64; sv->tasks = malloc(sizeof(int) * 4 * sv->taskcap);
    sv->tmp = calloc(K, sizeof(limb)); sv->tmp2 = calloc(K, sizeof(limb));
    sv->delta = calloc(K, sizeof(limb)); sv->s3 = calloc(K, sizeof(limb));
    if (!sv->D || !sv->mate || !sv->label || !sv->lea || !sv->leb || !sv->inb || !sv->parent
            || !sv->base || !sv->ch || !sv->ea || !sv->eb || !sv->nch || !sv->bea
            || !sv->bsl || !sv->bep || !sv->sb || !sv->unused || !sv->queue || !sv->leaves
            || !sv->stk || !sv->tasks || !sv->tmp || !sv->tmp2 || !sv->delta || !sv->s3
            || !sv->tl || !sv->ntl || !sv->captl || !sv->tlok || !sv->scanned || !sv->scanned_flag) {
        solver_free(sv);
        PyErr_NoMemory();
        return -1;
    }
    for (int v = 0; v < 2 * n; v++) {
        sv->parent[v] = -1;
        sv->base[v] = v < n ? v : -1;
        if (v < n) sv->inb[v] = v;
    }
    sv->nunused = 0;
    for (int b = 2 * n - 1; b >= n; b--) sv->unused[sv->nunused++] = b;
    sv->epoch = 1;
    return 0;
}

/* the least dual (>= 0) of vertex i that keeps its edges feasible against u */
static void least_feasible(Graph *g, int i, const limb *u, limb *out, limb *tmp) {
    int n = g->n, K = g->K;
    n_zero(out, K);
    const uint32_t *row = g->idx + (size_t)i * n;
    for (int j = 0; j < n; j++) {
        if (!g->tabpos[row[j]]) continue;
        n_sub(tmp, g->tab + (size_t)row[j] * K, u + (size_t)j * K, K);
        if (n_cmp(tmp, out, K) > 0) n_copy(out, tmp, K);
    }
}

/* matching.py _repair: a previous optimum made a valid warm start after changes */
static void repair(Graph *g, limb *tmp, limb *tmp2) {
    int n = g->n, K = g->K;
    limb *u = g->dual;
    int *mate = g->mate;
    for (int i = 0; i < n; i++) {
        if (!g->dirty[i] || !g->raised[i]) continue;
        least_feasible(g, i, u, tmp, tmp2);
        if (n_cmp(u + (size_t)i * K, tmp, K) < 0) n_copy(u + (size_t)i * K, tmp, K);
    }
    limb *gap = malloc(sizeof(limb) * K), *room = malloc(sizeof(limb) * K);
    if (!gap || !room) { free(gap); free(room); return; }
    for (int i = 0; i < n; i++) {
        if (!g->dirty[i]) continue;
        int m = mate[i];
        if (m == -1) continue;
        if (!POS(g, i, m)) { mate[i] = mate[m] = -1; continue; }
        n_slack(gap, u + (size_t)i * K, u + (size_t)m * K, W(g, i, m), K);
        for (int side = 0; side < 2; side++) {
            if (n_sign(gap, K) <= 0) break;
            int a = side ? m : i, b = side ? i : m;
            limb *ua = u + (size_t)a * K;
            n_copy(room, ua, K);
            const uint32_t *row = g->idx + (size_t)a * n;
            for (int k = 0; k < n; k++) {
                if (k == b || !g->tabpos[row[k]]) continue;
                n_slack(tmp, ua, u + (size_t)k * K, g->tab + (size_t)row[k] * K, K);
                if (n_cmp(tmp, room, K) < 0) n_copy(room, tmp, K);
            }
            limb *step = n_cmp(gap, room, K) < 0 ? gap : room;
            if (n_sign(step, K) > 0) {
                n_copy(tmp2, step, K);
                n_sub(ua, ua, tmp2, K);
                n_sub(gap, gap, tmp2, K);
            }
        }
        if (!n_iszero(gap, K)) mate[i] = mate[m] = -1;
    }
    free(gap); free(room);
}

static PyObject *mate_list(Graph *g) {
    PyObject *out = PyList_New(g->n);
    if (!out) return NULL;
    for (int v = 0; v < g->n; v++) {
        PyObject *x = PyLong_FromLong(g->mate[v] == -1 ? v : g->mate[v]);
        if (!x) { Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, v, x);
    }
    return out;
}

static PyObject *Graph_solve(Graph *g, PyObject *Py_UNUSED(ignored)) {
    int n = g->n;
    g->solves++;
    Solver sv;
    /* room for the duals before the solver copies its width */
    if (ensure_bits(g, g->maxbits + 2, NULL, 0, NULL) < 0) return NULL;
    if (solver_init(&sv, g) < 0) return NULL;
    int K = g->K;
    Py_BEGIN_ALLOW_THREADS
    if (!g->has_mate) {
        /* cold start: each dual half its heaviest edge, lowered as far as feasible; the
           edges tight at both ends matched greedily */
        for (int i = 0; i < n; i++) {
            limb *d = DV(&sv, i);
            n_zero(d, K);
            const uint32_t *row = g->idx + (size_t)i * n;
            for (int j = 0; j < n; j++)
                if (g->tabpos[row[j]] && n_cmp(g->tab + (size_t)row[j] * K, d, K) > 0)
                    n_copy(d, g->tab + (size_t)row[j] * K, K);
            n_sar1(d, K);
        }
        for (int i = 0; i < n; i++) least_feasible(g, i, sv.D, DV(&sv, i), sv.tmp);
        for (int i = 0; i < n; i++) sv.mate[i] = -1;
        for (int i = 0; i < n; i++) {
            if (sv.mate[i] != -1) continue;
            const uint32_t *row = g->idx + (size_t)i * n;
            for (int j = 0; j < n; j++) {
                if (j == i || !g->tabpos[row[j]] || sv.mate[j] != -1) continue;
                n_slack(sv.tmp, DV(&sv, i), DV(&sv, j), g->tab + (size_t)row[j] * K, K);
                if (n_iszero(sv.tmp, K)) { sv.mate[i] = j; sv.mate[j] = i; break; }
            }
        }
    } else {
        repair(g, sv.tmp, sv.tmp2);
        for (int i = 0; i < n; i++) { sv.mate[i] = g->mate[i]; n_copy(DV(&sv, i), g->dual + (size_t)i * K, K); }
    }
    memset(g->raised, 0, (size_t)n);
    /* every root gets an even dual: all tree vertices share one parity */
    for (int v = 0; v < n; v++)
        if (sv.mate[v] == -1 && (DV(&sv, v)[0] & 1)) n_addsmall(DV(&sv, v), 1, K);
    solver_run(&sv);
    Py_END_ALLOW_THREADS
    if (sv.error) { solver_free(&sv); return PyErr_NoMemory(); }
    K = g->K;
    /* the optimum: mate, own duals, and the duals with every blossom dissolved */
    memcpy(g->mate, sv.mate, sizeof(int) * n);
    for (int v = 0; v < n; v++) {
        n_copy(g->true_u + (size_t)v * K, DV(&sv, v), K);
        n_copy(g->dual + (size_t)v * K, DV(&sv, v), K);
    }
    memset(g->in_blossom, 0, n);
    int *stk = malloc(sizeof(int) * 2 * n + 2);
    limb *acc = malloc(sizeof(limb) * (size_t)(2 * n + 1) * K);
    uint8_t *pos = malloc(2 * n + 1);
    if (!stk || !acc || !pos) { free(stk); free(acc); free(pos); solver_free(&sv); return PyErr_NoMemory(); }
    for (int b = n; b < 2 * n; b++) {
        if (sv.base[b] < 0 || sv.parent[b] != -1) continue;
        int top = 0;
        stk[top++] = b;
        n_copy(acc + (size_t)b * K, DV(&sv, b), K);
        pos[b] = n_sign(DV(&sv, b), K) > 0;
        while (top) {
            int x = stk[--top];
            for (int c = 0; c < sv.nch[x]; c++) {
                int y = sv.ch[x][c];
                if (y < n) {
                    n_add(g->dual + (size_t)y * K, g->dual + (size_t)y * K, acc + (size_t)x * K, K);
                    if (pos[x]) g->in_blossom[y] = 1;
                } else {
                    n_add(acc + (size_t)y * K, acc + (size_t)x * K, DV(&sv, y), K);
                    pos[y] = pos[x] || n_sign(DV(&sv, y), K) > 0;
                    stk[top++] = y;
                }
            }
        }
    }
    free(stk); free(acc); free(pos);
    solver_free(&sv);
    g->has_mate = 1;
    limb *tmp = malloc(sizeof(limb) * K);
    if (!tmp) return PyErr_NoMemory();
    for (int v = 0; v < n; v++) {
        int m = g->mate[v];
        g->dirty[v] = 0;
        if (m == -1) continue;
        n_slack(tmp, g->dual + (size_t)v * K, g->dual + (size_t)m * K, W(g, v, m), K);
        g->dirty[v] = !n_iszero(tmp, K);
    }
    free(tmp);
    return mate_list(g);
}

/* ---------------------------------------------------------------- Python methods ---- */

static int Graph_init(Graph *g, PyObject *args, PyObject *kwds) {
    static char *kw[] = {"n", NULL};
    int n;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "i", kw, &n)) return -1;
    if (n < 0) { PyErr_SetString(PyExc_ValueError, "n must be >= 0"); return -1; }
    if (g->idx) { PyErr_SetString(PyExc_TypeError, "a MatchingGraph is initialised once"); return -1; }
    g->n = n;
    g->K = 2;
    g->scale_log2 = 1;
    g->idx = calloc((size_t)n * n + 1, sizeof(uint32_t));
    g->tabcap = 64;
    g->tab = calloc((size_t)g->tabcap * g->K, sizeof(limb));
    g->tabpos = calloc(g->tabcap, 1);
    g->ntab = 1;  /* index 0: weight 0 */
    g->mate = malloc(sizeof(int) * (n + 1));
    g->dual = calloc((size_t)(n + 1) * g->K, sizeof(limb));
    g->true_u = calloc((size_t)(n + 1) * g->K, sizeof(limb));
    g->in_blossom = calloc(n + 1, 1);
    g->dirty = calloc(n + 1, 1);
    g->raised = calloc(n + 1, 1);
    g->rdist = calloc((size_t)(n + 1) * g->K, sizeof(limb));
    g->rback_a = malloc(sizeof(int) * (n + 1));
    g->rback_c = malloc(sizeof(int) * (n + 1));
    g->rhas = calloc(n + 1, 1);
    g->rin = calloc(n + 1, 1);
    g->rnext = calloc(n + 1, 1);
    if (!g->idx || !g->tab || !g->tabpos || !g->mate || !g->dual || !g->true_u
            || !g->in_blossom || !g->dirty || !g->raised || !g->rdist || !g->rback_a
            || !g->rback_c || !g->rhas || !g->rin || !g->rnext) {
        PyErr_NoMemory();
        return -1;
    }
    g->lookup = PyDict_New();
    g->objs = PyList_New(0);
    g->fixed = PyDict_New();
    if (!g->lookup || !g->objs || !g->fixed) return -1;
    PyObject *zero = PyLong_FromLong(0), *zk = PyLong_FromLong(0);
    if (!zero || !zk) return -1;
    PyDict_SetItem(g->lookup, zero, zk);
    PyList_Append(g->objs, zero);
    Py_DECREF(zero); Py_DECREF(zk);
    return 0;
}

static void Graph_dealloc(Graph *g) {
    free(g->idx); free(g->tab); free(g->tabpos); free(g->mate); free(g->dual); free(g->true_u);
    free(g->in_blossom); free(g->dirty); free(g->raised); free(g->rdist); free(g->rback_a);
    free(g->rback_c); free(g->rhas); free(g->rin); free(g->rnext);
    for (int h = 0; h < 64; h++) Py_XDECREF(g->cache_obj[h]);
    Py_XDECREF(g->lookup); Py_XDECREF(g->objs); Py_XDECREF(g->fixed);
    Py_TYPE(g)->tp_free((PyObject *)g);
}

static PyObject *Graph_set(Graph *g, PyObject *args) {
    long i, j;
    PyObject *w;
    if (!PyArg_ParseTuple(args, "llO", &i, &j, &w)) return NULL;
    if (check_vertex(g, i) < 0 || check_vertex(g, j) < 0) return NULL;
    int k = intern_weight(g, w);
    if (k < 0) return NULL;
    set_idx(g, (int)i, (int)j, (uint32_t)k);
    Py_RETURN_NONE;
}

static PyObject *Graph_set_many(Graph *g, PyObject *args) {
    PyObject *edges, *pool = NULL;
    if (!PyArg_ParseTuple(args, "O|O", &edges, &pool)) return NULL;
    PyObject *it = PyObject_GetIter(edges);
    if (!it) return NULL;
    PyObject *e;
    while ((e = PyIter_Next(it))) {
        long i, j;
        PyObject *w;
        if (PyTuple_Check(e) && PyTuple_GET_SIZE(e) == 3) {
            i = PyLong_AsLong(PyTuple_GET_ITEM(e, 0));
            j = PyLong_AsLong(PyTuple_GET_ITEM(e, 1));
            w = PyTuple_GET_ITEM(e, 2);
        } else if (!PyArg_ParseTuple(e, "llO", &i, &j, &w)) {
            Py_DECREF(e); Py_DECREF(it); return NULL;
        }
        if (PyErr_Occurred() || check_vertex(g, i) < 0 || check_vertex(g, j) < 0) {
            Py_DECREF(e); Py_DECREF(it); return NULL;
        }
        int k = intern_weight(g, w);
        Py_DECREF(e);
        if (k < 0) { Py_DECREF(it); return NULL; }
        set_idx(g, (int)i, (int)j, (uint32_t)k);
    }
    Py_DECREF(it);
    if (PyErr_Occurred()) return NULL;
    Py_RETURN_NONE;
}

static PyObject *Graph_set_edges(Graph *g, PyObject *args) {
    long i;
    PyObject *targets, *weights;
    if (!PyArg_ParseTuple(args, "lOO", &i, &targets, &weights)) return NULL;
    if (check_vertex(g, i) < 0) return NULL;
    PyObject *ws = PySequence_Fast(weights, "weights must be a sequence");
    if (!ws) return NULL;
    PyObject *ts = NULL;
    Py_ssize_t nw = PySequence_Fast_GET_SIZE(ws);
    if (targets != Py_None) {
        ts = PySequence_Fast(targets, "targets must be a sequence");
        if (!ts) { Py_DECREF(ws); return NULL; }
        if (PySequence_Fast_GET_SIZE(ts) < nw) {
            Py_DECREF(ws); Py_DECREF(ts);
            PyErr_SetString(PyExc_ValueError, "fewer targets than weights");
            return NULL;
        }
    }
    for (Py_ssize_t k = 0; k < nw; k++) {
        long j = k;
        if (ts) {
            j = PyLong_AsLong(PySequence_Fast_GET_ITEM(ts, k));
            if (j == -1 && PyErr_Occurred()) goto fail;
        }
        if (check_vertex(g, j) < 0) goto fail;
        int x = intern_weight(g, PySequence_Fast_GET_ITEM(ws, k));
        if (x < 0) goto fail;
        set_idx(g, (int)i, (int)j, (uint32_t)x);
    }
    Py_DECREF(ws); Py_XDECREF(ts);
    Py_RETURN_NONE;
fail:
    Py_DECREF(ws); Py_XDECREF(ts);
    return NULL;
}

static PyObject *Graph_set_rows(Graph *g, PyObject *args) {
    PyObject *rows, *pool = NULL;
    if (!PyArg_ParseTuple(args, "O|O", &rows, &pool)) return NULL;
    PyObject *seq = PySequence_Fast(rows, "rows must be a sequence");
    if (!seq) return NULL;
    Py_ssize_t nr = PySequence_Fast_GET_SIZE(seq);
    if (nr > g->n) { Py_DECREF(seq); PyErr_SetString(PyExc_ValueError, "more rows than vertices"); return NULL; }
    int n = g->n;
    /* rows beyond the given ones, and entries beyond each row, are 0 */
    for (int i = 0; i < n; i++) {
        PyObject *r = NULL;
        Py_ssize_t len = 0;
        if (i < nr) {
            r = PySequence_Fast(PySequence_Fast_GET_ITEM(seq, i), "a row must be a sequence");
            if (!r) { Py_DECREF(seq); return NULL; }
            len = PySequence_Fast_GET_SIZE(r);
        }
        for (int j = 0; j < i; j++) {
            int k = 0;
            if (j < len) {
                k = intern_weight(g, PySequence_Fast_GET_ITEM(r, j));
                if (k < 0) { Py_XDECREF(r); Py_DECREF(seq); return NULL; }
            }
            set_idx(g, i, j, (uint32_t)k);
        }
        Py_XDECREF(r);
    }
    Py_DECREF(seq);
    Py_RETURN_NONE;
}

static PyObject *row_list(Graph *g, int i) {
    PyObject *out = PyList_New(g->n);
    if (!out) return NULL;
    const uint32_t *row = g->idx + (size_t)i * g->n;
    for (int j = 0; j < g->n; j++) {
        PyObject *x = PyList_GET_ITEM(g->objs, row[j]);
        Py_INCREF(x);
        PyList_SET_ITEM(out, j, x);
    }
    return out;
}

static PyObject *Graph_row(Graph *g, PyObject *arg) {
    long i = PyLong_AsLong(arg);
    if (i == -1 && PyErr_Occurred()) return NULL;
    if (check_vertex(g, i) < 0) return NULL;
    return row_list(g, (int)i);
}

static PyObject *Graph_weight(Graph *g, PyObject *args) {
    long i, j;
    if (!PyArg_ParseTuple(args, "ll", &i, &j)) return NULL;
    if (check_vertex(g, i) < 0 || check_vertex(g, j) < 0) return NULL;
    PyObject *x = PyList_GET_ITEM(g->objs, g->idx[(size_t)i * g->n + j]);
    Py_INCREF(x);
    return x;
}

static PyObject *Graph_get_w(Graph *g, void *closure) {
    PyObject *out = PyList_New(g->n);
    if (!out) return NULL;
    for (int i = 0; i < g->n; i++) {
        PyObject *r = row_list(g, i);
        if (!r) { Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, i, r);
    }
    return out;
}

static PyObject *Graph_get_scale(Graph *g, void *closure) {
    PyObject *one = PyLong_FromLong(1), *sh = PyLong_FromLong(g->scale_log2);
    PyObject *r = one && sh ? PyNumber_Lshift(one, sh) : NULL;
    Py_XDECREF(one); Py_XDECREF(sh);
    return r;
}

static PyObject *Graph_fix(Graph *g, PyObject *args) {
    long i, j;
    if (!PyArg_ParseTuple(args, "ll", &i, &j)) return NULL;
    if (check_vertex(g, i) < 0 || check_vertex(g, j) < 0) return NULL;
    PyObject *pi = PyLong_FromLong(i), *pj = PyLong_FromLong(j);
    if (!pi || !pj || PyDict_SetItem(g->fixed, pi, pj) < 0 || PyDict_SetItem(g->fixed, pj, pi) < 0) {
        Py_XDECREF(pi); Py_XDECREF(pj); return NULL;
    }
    Py_DECREF(pi); Py_DECREF(pj);
    for (int side = 0; side < 2; side++) {
        int a = side ? (int)j : (int)i, b = side ? (int)i : (int)j;
        for (int k = 0; k < g->n; k++)
            if (k != b && POS(g, a, k)) set_idx(g, a, k, 0);
    }
    Py_RETURN_NONE;
}

/* a weight given by the caller (a row() entry), scaled, into out */
static int scaled_value(Graph *g, PyObject *w, limb *out) {
    int k = intern_weight(g, w);
    if (k < 0) return -1;
    n_copy(out, g->tab + (size_t)k * g->K, g->K);
    return 0;
}

static int list_int(PyObject *lst, Py_ssize_t i, long *out) {
    PyObject *x = PySequence_GetItem(lst, i);
    if (!x) return -1;
    *out = PyLong_AsLong(x);
    Py_DECREF(x);
    return (*out == -1 && PyErr_Occurred()) ? -1 : 0;
}

static int list_set(PyObject *lst, long i, long v) {
    PyObject *x = PyLong_FromLong(v);
    if (!x) return -1;
    int r = PySequence_SetItem(lst, i, x);
    Py_DECREF(x);
    return r;
}

static int do_swap_in(Graph *g, PyObject *mate, long p, long q, PyObject *prev) {
    long mp, mq;
    int K;
    if (list_int(mate, p, &mp) < 0 || list_int(mate, q, &mq) < 0) return -1;
    /* intern the caller's weights first: that may widen K */
    PyObject *pq = PySequence_GetItem(prev, q), *pmp = mp != p ? PySequence_GetItem(prev, mp) : NULL;
    if (!pq || (mp != p && !pmp)) { Py_XDECREF(pq); Py_XDECREF(pmp); return -1; }
    if (intern_weight(g, pq) < 0 || (pmp && intern_weight(g, pmp) < 0)) { Py_DECREF(pq); Py_XDECREF(pmp); return -1; }
    K = g->K;
    limb *old = calloc(K, sizeof(limb)), *nw = calloc(K, sizeof(limb)), *t = calloc(K, sizeof(limb));
    int result = 0;
    if (!old || !nw || !t) { PyErr_NoMemory(); result = -1; goto done; }
    if (mp != p) scaled_value(g, pmp, old);
    if (mq != q) n_add(old, old, W(g, q, mq), K);
    scaled_value(g, pq, nw);
    if (n_sign(nw, K) <= 0) goto done;
    if (mp != p && mq != q) {
        if (!POS(g, mp, mq)) goto done;
        n_add(nw, nw, W(g, mp, mq), K);
    }
    if (n_cmp(nw, old, K) != 0) goto done;
    if (mp != p && list_set(mate, mp, mp) < 0) { result = -1; goto done; }
    if (mq != q && list_set(mate, mq, mq) < 0) { result = -1; goto done; }
    if (mp != p && mq != q && (list_set(mate, mp, mq) < 0 || list_set(mate, mq, mp) < 0)) { result = -1; goto done; }
    if (list_set(mate, p, q) < 0 || list_set(mate, q, p) < 0) { result = -1; goto done; }
    if (g->has_mate) {
        long vs[4] = {p, q, mp, mq};
        for (int k = 0; k < 4; k++) {
            long m;
            if (list_int(mate, vs[k], &m) < 0) { result = -1; goto done; }
            g->mate[vs[k]] = m == vs[k] ? -1 : (int)m;
            g->dirty[vs[k]] = 1;
        }
    }
    result = 1;
done:
    free(old); free(nw); free(t);
    Py_DECREF(pq); Py_XDECREF(pmp);
    return result;
}

static PyObject *Graph_swap_in(Graph *g, PyObject *args) {
    PyObject *mate, *prev;
    long p, q;
    if (!PyArg_ParseTuple(args, "OllO", &mate, &p, &q, &prev)) return NULL;
    if (check_vertex(g, p) < 0 || check_vertex(g, q) < 0) return NULL;
    int r = do_swap_in(g, mate, p, q, prev);
    if (r < 0) return NULL;
    return PyBool_FromLong(r);
}

static PyObject *Graph_never_optimal(Graph *g, PyObject *args) {
    long p, q;
    PyObject *w;
    if (!PyArg_ParseTuple(args, "llO", &p, &q, &w)) return NULL;
    if (check_vertex(g, p) < 0 || check_vertex(g, q) < 0) return NULL;
    if (!g->has_mate || g->in_blossom[p] || g->in_blossom[q]) Py_RETURN_FALSE;
    int k = intern_weight(g, w);
    if (k < 0) return NULL;
    int K = g->K;
    limb *t = malloc(sizeof(limb) * K);
    if (!t) return PyErr_NoMemory();
    n_slack(t, g->true_u + (size_t)p * K, g->true_u + (size_t)q * K, g->tab + (size_t)k * K, K);
    int r = n_sign(t, K) > 0;
    free(t);
    return PyBool_FromLong(r);
}

static PyObject *Graph_rotate_in(Graph *g, PyObject *args, PyObject *kwds) {
    static char *kw[] = {"mate", "p", "q", "prev", "cand", "depth", NULL};
    PyObject *mate, *prev, *cand;
    long p, q;
    int depth = 8;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OllOO|i", kw, &mate, &p, &q, &prev, &cand, &depth))
        return NULL;
    if (check_vertex(g, p) < 0 || check_vertex(g, q) < 0) return NULL;
    long mp, mq;
    if (list_int(mate, p, &mp) < 0 || list_int(mate, q, &mq) < 0) return NULL;
    if (mp == p || mp == q || mq == q) {
        int r = do_swap_in(g, mate, p, q, prev);
        if (r < 0) return NULL;
        return PyBool_FromLong(r);
    }
    PyObject *pq = PySequence_GetItem(prev, q), *pmp = PySequence_GetItem(prev, mp);
    if (!pq || !pmp) { Py_XDECREF(pq); Py_XDECREF(pmp); return NULL; }
    int kq = intern_weight(g, pq), kmp = intern_weight(g, pmp);
    Py_DECREF(pq); Py_DECREF(pmp);
    if (kq < 0 || kmp < 0) return NULL;
    PyObject *cs = PySequence_Fast(cand, "cand must be a sequence");
    if (!cs) return NULL;
    int n = g->n, K = g->K;
    if (!g->tabpos[kq]) { Py_DECREF(cs); Py_RETURN_FALSE; }
    Py_ssize_t nc = PySequence_Fast_GET_SIZE(cs);
    int *cl = malloc(sizeof(int) * (nc + 1)), *mcl = malloc(sizeof(int) * (nc + 1));
    int *front = malloc(sizeof(int) * (n + 1)), *nxt = malloc(sizeof(int) * (n + 1));
    int *touched = malloc(sizeof(int) * (n + 1));
    limb *val = malloc(sizeof(limb) * K), *bestv = malloc(sizeof(limb) * K), *start = malloc(sizeof(limb) * K);
    int ntouched = 0, result = 0;
    PyObject *ret = NULL;
    if (!cl || !mcl || !front || !nxt || !touched || !val || !bestv || !start) { PyErr_NoMemory(); goto out; }
    for (Py_ssize_t k = 0; k < nc; k++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(cs, k));
        if (c == -1 && PyErr_Occurred()) goto out;
        if (check_vertex(g, c) < 0) goto out;
        if (!g->rin[c]) { g->rin[c] = 1; touched[ntouched++] = (int)c; }
    }
    /* the players of cand that may take part in the cycle, with their mates */
    int nm = 0;
    for (Py_ssize_t k = 0; k < nc; k++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(cs, k)), mc;
        if (c == p || c == q || c == mp || c == mq) continue;
        if (list_int(mate, c, &mc) < 0) goto out;
        if (mc == c || mc < 0 || mc >= n || !g->rin[mc] || mc == p || mc == q || mc == mp) continue;
        cl[nm] = (int)c; mcl[nm] = (int)mc; nm++;
    }
    /* start = prev[q] - prev[mp] (scaled) - w[q][mq] */
    n_sub(start, g->tab + (size_t)kq * K, g->tab + (size_t)kmp * K, K);
    n_sub(start, start, W(g, q, mq), K);
    int *dtouch = malloc(sizeof(int) * (n + 1));
    int ndt = 0;
    if (!dtouch) { PyErr_NoMemory(); goto out; }
    n_copy(g->rdist + (size_t)mq * K, start, K);
    g->rhas[mq] = 1; dtouch[ndt++] = (int)mq;
    int best_end = -1, nf = 1;
    front[0] = (int)mq;
    for (int it = 0; it < depth && nf; it++) {
        int nn = 0;
        /* the cycles this depth closes (through an edge to p's old mate) first: a cycle
           that loses nothing ends the search, as no simple cycle gains while mate is optimal */
        for (int f = 0; f < nf; f++) {
            int a = front[f];
            if (!POS(g, a, mp)) continue;
            n_add(val, g->rdist + (size_t)a * K, W(g, a, mp), K);
            if (best_end == -1 || n_cmp(val, bestv, K) > 0) { best_end = a; n_copy(bestv, val, K); }
        }
        if (best_end != -1 && n_iszero(bestv, K)) break;
        for (int f = 0; f < nf; f++) {
            int a = front[f];
            limb *da = g->rdist + (size_t)a * K;
            for (int k = 0; k < nm; k++) {
                int c = cl[k], mc = mcl[k];
                if (c == a || mc == a || !POS(g, a, c)) continue;
                n_add(val, da, W(g, a, c), K);
                n_sub(val, val, W(g, c, mc), K);
                if (!g->rhas[mc] || n_cmp(val, g->rdist + (size_t)mc * K, K) > 0) {
                    if (!g->rhas[mc]) { g->rhas[mc] = 1; dtouch[ndt++] = mc; }
                    n_copy(g->rdist + (size_t)mc * K, val, K);
                    g->rback_a[mc] = a; g->rback_c[mc] = c;
                    if (!g->rnext[mc]) { g->rnext[mc] = 1; nxt[nn++] = mc; }
                }
            }
        }
        for (int k = 0; k < nn; k++) { g->rnext[nxt[k]] = 0; front[k] = nxt[k]; }
        nf = nn;
    }
    if (best_end != -1 && n_iszero(bestv, K)) {
        /* rebuild the cycle and check that it is simple */
        int ntk = 0, ok = 1;
        int *tx = malloc(sizeof(int) * (depth + 3)), *ty = malloc(sizeof(int) * (depth + 3));
        if (!tx || !ty) { free(tx); free(ty); free(dtouch); PyErr_NoMemory(); goto out; }
        tx[ntk] = best_end; ty[ntk] = (int)mp; ntk++;
        int a = best_end;
        while (a != mq) {
            int pa = g->rback_a[a], c = g->rback_c[a];
            tx[ntk] = pa; ty[ntk] = c; ntk++;
            a = pa;
            if (ntk > depth + 1) { ok = 0; break; }
        }
        if (ok) {
            /* distinct vertices: p, q and both ends of every take */
            int tot = 2 + 2 * ntk;
            int *vs = malloc(sizeof(int) * tot);
            if (!vs) { free(tx); free(ty); free(dtouch); PyErr_NoMemory(); goto out; }
            vs[0] = (int)p; vs[1] = (int)q;
            for (int k = 0; k < ntk; k++) { vs[2 + 2 * k] = tx[k]; vs[3 + 2 * k] = ty[k]; }
            for (int x = 0; x < tot && ok; x++)
                for (int y = x + 1; y < tot; y++) if (vs[x] == vs[y]) { ok = 0; break; }
            free(vs);
        }
        if (ok) {
            for (int k = 0; k < ntk && result >= 0; k++)
                if (list_set(mate, tx[k], ty[k]) < 0 || list_set(mate, ty[k], tx[k]) < 0) result = -1;
            if (result >= 0 && (list_set(mate, p, q) < 0 || list_set(mate, q, p) < 0)) result = -1;
            if (result >= 0 && g->has_mate) {
                for (int k = 0; k < ntk; k++) {
                    g->mate[tx[k]] = ty[k]; g->mate[ty[k]] = tx[k];
                    g->dirty[tx[k]] = g->dirty[ty[k]] = 1;
                }
                g->mate[p] = (int)q; g->mate[q] = (int)p;
                g->dirty[p] = g->dirty[q] = 1;
            }
            if (result >= 0) result = 1;
        }
        free(tx); free(ty);
    }
    for (int k = 0; k < ndt; k++) g->rhas[dtouch[k]] = 0;
    free(dtouch);
    if (result >= 0) ret = PyBool_FromLong(result);
out:
    for (int k = 0; k < ntouched; k++) g->rin[touched[k]] = 0;
    free(cl); free(mcl); free(front); free(nxt); free(touched); free(val); free(bestv); free(start);
    Py_DECREF(cs);
    return ret;
}

static PyObject *Graph_seed_from(Graph *g, PyObject *args) {
    PyObject *subo, *vertices;
    if (!PyArg_ParseTuple(args, "O!O", &GraphType, &subo, &vertices)) return NULL;
    Graph *sub = (Graph *)subo;
    if (!g->has_mate || !sub->has_mate || sub->scale_log2 != g->scale_log2) Py_RETURN_NONE;
    PyObject *vs = PySequence_Fast(vertices, "vertices must be a sequence");
    if (!vs) return NULL;
    Py_ssize_t nv = PySequence_Fast_GET_SIZE(vs);
    if (nv > sub->n) { Py_DECREF(vs); PyErr_SetString(PyExc_ValueError, "more vertices than the subgraph has"); return NULL; }
    int *map = malloc(sizeof(int) * (nv + 1));
    if (!map) { Py_DECREF(vs); return PyErr_NoMemory(); }
    for (Py_ssize_t k = 0; k < nv; k++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(vs, k));
        if ((v == -1 && PyErr_Occurred()) || check_vertex(g, v) < 0) { free(map); Py_DECREF(vs); return NULL; }
        map[k] = (int)v;
    }
    Py_DECREF(vs);
    if (sub->K > g->K && grow_limbs(g, sub->K, NULL, 0, NULL) < 0) { free(map); return PyErr_NoMemory(); }
    for (Py_ssize_t k = 0; k < nv; k++) {
        int v = map[k], old = g->mate[v];
        if (old != -1) { g->mate[old] = -1; g->dirty[old] = 1; }
        g->mate[v] = -1;
    }
    for (Py_ssize_t k = 0; k < nv; k++) {
        int v = map[k], m = sub->mate[k];
        if (m != -1) g->mate[v] = map[m];
        n_resize(g->dual + (size_t)v * g->K, g->K, sub->dual + (size_t)k * sub->K, sub->K);
        g->dirty[v] = g->raised[v] = 1;
    }
    free(map);
    Py_RETURN_NONE;
}

static PyObject *Graph_forget(Graph *g, PyObject *Py_UNUSED(ignored)) {
    g->has_mate = 0;
    memset(g->dirty, 0, g->n);
    memset(g->raised, 0, g->n);
    Py_RETURN_NONE;
}

static PyObject *Graph_duals(Graph *g, PyObject *Py_UNUSED(ignored)) {
    /* the warm-start vertex duals (scaled), for tests */
    PyObject *out = PyList_New(g->n);
    if (!out) return NULL;
    for (int v = 0; v < g->n; v++) {
        PyObject *x = limbs_to_pylong(g->dual + (size_t)v * g->K, g->K);
        if (!x) { Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, v, x);
    }
    return out;
}

static PyMethodDef Graph_methods[] = {
    {"set", (PyCFunction)Graph_set, METH_VARARGS, "set(i, j, weight): the weight of edge (i, j) (0: none)."},
    {"set_many", (PyCFunction)Graph_set_many, METH_VARARGS, "set_many(edges, pool=None): set(i, j, weight) for each."},
    {"set_edges", (PyCFunction)Graph_set_edges, METH_VARARGS, "set_edges(i, targets, weights): set(i, targets[k], weights[k]) for each k (targets None: k)."},
    {"set_rows", (PyCFunction)Graph_set_rows, METH_VARARGS, "set_rows(rows, pool=None): every edge, rows[i][j] for j < i."},
    {"row", (PyCFunction)Graph_row, METH_O, "row(i): the weights of the edges of vertex i."},
    {"weight", (PyCFunction)Graph_weight, METH_VARARGS, "weight(i, j)."},
    {"fix", (PyCFunction)Graph_fix, METH_VARARGS, "fix(i, j): keep i and j paired (drop their other edges)."},
    {"solve", (PyCFunction)Graph_solve, METH_NOARGS, "solve(): re-optimise (warm start); mate, unmatched = itself."},
    {"swap_in", (PyCFunction)Graph_swap_in, METH_VARARGS, "swap_in(mate, p, q, prev): see matching.py."},
    {"rotate_in", (PyCFunction)(void (*)(void))Graph_rotate_in, METH_VARARGS | METH_KEYWORDS, "rotate_in(mate, p, q, prev, cand, depth=8): see matching.py."},
    {"never_optimal", (PyCFunction)Graph_never_optimal, METH_VARARGS, "never_optimal(p, q, weight): see matching.py."},
    {"seed_from", (PyCFunction)Graph_seed_from, METH_VARARGS, "seed_from(sub, vertices): see matching.py."},
    {"forget", (PyCFunction)Graph_forget, METH_NOARGS, "forget(): the next solve starts cold."},
    {"duals", (PyCFunction)Graph_duals, METH_NOARGS, "duals(): the warm-start vertex duals (scaled)."},
    {NULL}
};

static PyMemberDef Graph_members[] = {
    {"n", T_INT, offsetof(Graph, n), READONLY, "number of vertices"},
    {"fixed", T_OBJECT, offsetof(Graph, fixed), READONLY, "the fixed pairs, both ways"},
    {"solves", T_LONG, offsetof(Graph, solves), READONLY, "number of solves"},
    {"limbs", T_INT, offsetof(Graph, K), READONLY, "64-bit limbs per number"},
    {NULL}
};

static PyGetSetDef Graph_getset[] = {
    {"w", (getter)Graph_get_w, NULL, "the weight matrix (a copy)", NULL},
    {"_scale", (getter)Graph_get_scale, NULL, "the factor the stored weights carry", NULL},
    {NULL}
};

static PyTypeObject GraphType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "transforms.fide.dutch.cmatching.MatchingGraph",
    .tp_basicsize = sizeof(Graph),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "A weighted graph the Dutch engine re-solves after each change of weights (compiled).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Graph_init,
    .tp_dealloc = (destructor)Graph_dealloc,
    .tp_methods = Graph_methods,
    .tp_members = Graph_members,
    .tp_getset = Graph_getset,
};

static struct PyModuleDef cmatching_module = {
    PyModuleDef_HEAD_INIT, "cmatching",
    "The Dutch engine's weighted-matching graph, compiled (see matching.py).", -1, NULL,
};

PyMODINIT_FUNC PyInit_cmatching(void) {
    if (PyType_Ready(&GraphType) < 0) return NULL;
    PyObject *m = PyModule_Create(&cmatching_module);
    if (!m) return NULL;
    Py_INCREF(&GraphType);
    if (PyModule_AddObject(m, "MatchingGraph", (PyObject *)&GraphType) < 0) {
        Py_DECREF(&GraphType); Py_DECREF(m); return NULL;
    }
    return m;
}
