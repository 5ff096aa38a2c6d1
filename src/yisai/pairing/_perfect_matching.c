/*
 * Maximum-weight perfect matching of a complete graph with an even number of vertices, given
 * as a dense n x n matrix of 64-bit integer weights: Edmonds' primal-dual blossom method in
 * its O(n^3) dense form (a best edge kept for every pair of nodes, a least-slack edge for
 * every node).
 *
 * Why our own: the OpenGotha-compatible pairing matches every pair of a field of up to 600
 * players, and a general graph library spends most of its time on its graph, not on the
 * method. Why exact integers: OpenGotha's costs are Java longs and the pairing must be the
 * maximum of exactly those numbers; the weights are shifted to start at 0 and doubled so that
 * every dual value stays an integer, in 128 bits so that nothing can overflow.
 *
 * Nodes 0..n-1 are the vertices, n..2n-1 the blossoms. The vertices are scanned in index
 * order, so the result depends only on the matrix (the caller's order decides among equal
 * maxima).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef __int128 wide;

/* OpenGotha pairs groups of at most 600; the tables grow as (2n)^2 (about 200 MB at 2048) */
#define MAX_VERTICES 2048

enum { FREE = -1, OUTER = 0, INNER = 1 };

typedef struct {
    int n;        /* vertices */
    int cap;      /* vertices and blossoms: 2n */
    int used;     /* node indices in use are below this */
    wide *w;      /* n*n: 2 * (weight - least weight) */
    wide *dual;   /* cap: a vertex's dual; a blossom's (z of the LP) */
    int *top;     /* cap: the outermost blossom holding the node; -1 for an unused blossom */
    int *mate;    /* cap: the vertex matched to the node's base, -1 */
    int *label;   /* cap: FREE, OUTER (even) or INNER (odd) in the current search */
    int *parent;  /* cap: for an INNER node, the OUTER vertex that reached it */
    int *best;    /* cap: the OUTER vertex of least slack towards the node, -1 */
    int *end;     /* cap*cap: end[x*cap+y], x's vertex of the best edge between x and y */
    int *owner;   /* cap*n: owner[b*n+v], the child of blossom b that holds vertex v */
    int *kids;    /* cap*n: a blossom's children around its cycle, the base first */
    int *nkids;   /* cap */
    int *seen;    /* cap: marks of the common-ancestor walk */
    int clock;
    int *queue;   /* n: OUTER vertices still to scan */
    int head, tail;
} Solver;

static inline wide slack(const Solver *s, int u, int v) {
    return s->dual[u] + s->dual[v] - s->w[(size_t)u * s->n + v];
}

/* The slack of the best edge between nodes x and y (the duals of blossoms holding both
 * ends are not included: only nodes in different outermost blossoms are ever compared). */
static inline wide edge_slack(const Solver *s, int x, int y) {
    return slack(s, s->end[(size_t)x * s->cap + y], s->end[(size_t)y * s->cap + x]);
}

static void push(Solver *s, int x) {
    if (x < s->n) {
        s->queue[s->tail++] = x;
        return;
    }
    for (int i = 0; i < s->nkids[x]; i++) push(s, s->kids[(size_t)x * s->n + i]);
}

static void set_top(Solver *s, int x, int b) {
    s->top[x] = b;
    if (x < s->n) return;
    for (int i = 0; i < s->nkids[x]; i++) set_top(s, s->kids[(size_t)x * s->n + i], b);
}

static inline void offer(Solver *s, int u, int x) {
    int b = s->best[x];
    if (b < 0 || slack(s, u, s->end[(size_t)x * s->cap + u]) <
                     slack(s, b, s->end[(size_t)x * s->cap + b]))
        s->best[x] = u;
}

static void refresh_best(Solver *s, int x) {
    s->best[x] = -1;
    for (int u = 0; u < s->n; u++)
        if (s->top[u] != x && s->label[s->top[u]] == OUTER) offer(s, u, x);
}

/* Reverse a cycle's order, keeping its base (place 0) first. */
static void reverse_after_base(int *k, int nk) {
    for (int i = 1, j = nk - 1; i < j; i++, j--) {
        int t = k[i];
        k[i] = k[j];
        k[j] = t;
    }
}

/* Bring child xr of blossom b to an even place of its cycle (reversing the cycle if it sits
 * at an odd one) and return that place. */
static int even_place(Solver *s, int b, int xr) {
    int *k = s->kids + (size_t)b * s->n, nk = s->nkids[b], at = 0;
    while (k[at] != xr) at++;
    if (at % 2 == 0) return at;
    reverse_after_base(k, nk);
    return nk - at;
}

/* Match node x (and, inside it, everything from its new base) towards node y. */
static void set_match(Solver *s, int x, int y) {
    s->mate[x] = s->end[(size_t)y * s->cap + x];
    if (x < s->n) return;
    int xr = s->owner[(size_t)x * s->n + s->end[(size_t)x * s->cap + y]];
    int at = even_place(s, x, xr), nk = s->nkids[x];
    int *k = s->kids + (size_t)x * s->n;
    for (int i = 0; i < at; i++) set_match(s, k[i], k[i ^ 1]);
    set_match(s, xr, y);
    /* rotate the cycle so that xr is its base */
    int buf_small[64];
    int *buf = nk <= 64 ? buf_small : (int *)malloc(sizeof(int) * (size_t)nk);
    for (int i = 0; i < nk; i++) buf[i] = k[(at + i) % nk];
    memcpy(k, buf, sizeof(int) * (size_t)nk);
    if (buf != buf_small) free(buf);
}

static void augment(Solver *s, int x, int y) {
    for (;;) {
        int inner = s->mate[x] < 0 ? -1 : s->top[s->mate[x]];
        set_match(s, x, y);
        if (inner < 0) return;
        int outer = s->top[s->parent[inner]];
        set_match(s, inner, outer);
        x = outer;
        y = inner;
    }
}

/* The outermost blossom where the tree paths of x and y meet, -1 when they are in different
 * trees (then the edge between them completes an augmenting path). */
static int meeting(Solver *s, int x, int y) {
    s->clock++;
    while (x >= 0 || y >= 0) {
        if (x >= 0) {
            if (s->seen[x] == s->clock) return x;
            s->seen[x] = s->clock;
            x = s->mate[x] < 0 ? -1 : s->top[s->mate[x]];
            if (x >= 0) x = s->top[s->parent[x]];
        }
        int t = x;
        x = y;
        y = t;
    }
    return -1;
}

/* Append the tree path from OUTER node x up to base (exclusive), each OUTER node and the INNER
 * node it is matched to; the INNER ones become OUTER and are queued. Returns the new count. */
static int walk_to_base(Solver *s, int x, int base, int *k, int nk) {
    for (int u = x; u != base;) {
        int v = s->top[s->mate[u]];
        k[nk++] = u;
        k[nk++] = v;
        push(s, v);
        u = s->top[s->parent[v]];
    }
    return nk;
}

static int add_blossom(Solver *s, int x, int base, int y) {
    int b = s->n;
    while (b < s->used && s->top[b] >= 0) b++;
    if (b >= s->cap) return -1;
    if (b == s->used) s->used++;
    s->dual[b] = 0;
    s->label[b] = OUTER;
    s->mate[b] = s->mate[base];
    int *k = s->kids + (size_t)b * s->n, nk = 0;
    k[nk++] = base;
    nk = walk_to_base(s, x, base, k, nk);
    reverse_after_base(k, nk);
    nk = walk_to_base(s, y, base, k, nk);
    s->nkids[b] = nk;
    set_top(s, b, b);
    size_t cap = (size_t)s->cap;
    for (int z = 0; z < s->used; z++) s->end[(size_t)b * cap + z] = -1;
    for (int i = 0; i < nk; i++) {
        int c = k[i];
        for (int z = 0; z < s->used; z++) {
            if (s->top[z] < 0 || s->top[z] == b) continue;
            int cur = s->end[(size_t)b * cap + z];
            if (cur < 0 || edge_slack(s, c, z) < slack(s, cur, s->end[(size_t)z * cap + b])) {
                s->end[(size_t)b * cap + z] = s->end[(size_t)c * cap + z];
                s->end[(size_t)z * cap + b] = s->end[(size_t)z * cap + c];
            }
        }
    }
    int *own = s->owner + (size_t)b * s->n;
    for (int v = 0; v < s->n; v++) own[v] = -1;
    for (int i = 0; i < nk; i++) {
        int c = k[i];
        if (c < s->n) {
            own[c] = c;
            continue;
        }
        const int *inner = s->owner + (size_t)c * s->n;
        for (int v = 0; v < s->n; v++)
            if (inner[v] >= 0) own[v] = c;
    }
    refresh_best(s, b);
    return 0;
}

static void expand(Solver *s, int b) {
    int *k = s->kids + (size_t)b * s->n;
    for (int i = 0; i < s->nkids[b]; i++) set_top(s, k[i], k[i]);
    int entry = s->end[(size_t)b * s->cap + s->parent[b]];
    int xr = s->owner[(size_t)b * s->n + entry];
    int at = even_place(s, b, xr), nk = s->nkids[b];
    for (int i = 0; i < at; i += 2) {
        int xs = k[i], xns = k[i + 1];
        s->parent[xs] = s->end[(size_t)xns * s->cap + xs];
        s->label[xs] = INNER;
        s->label[xns] = OUTER;
        s->best[xs] = -1;
        refresh_best(s, xns);
        push(s, xns);
    }
    s->label[xr] = INNER;
    s->parent[xr] = s->parent[b];
    s->best[xr] = -1;
    for (int i = at + 1; i < nk; i++) {
        s->label[k[i]] = FREE;
        refresh_best(s, k[i]);
    }
    s->top[b] = -1;
}

/* A tight edge from OUTER vertex u to vertex v: grow the tree, make a blossom, or augment
 * (returns 1), or -1 when out of blossom indices (cannot happen). */
static int tight(Solver *s, int u, int v) {
    int x = s->top[u], y = s->top[v];
    if (s->label[y] == FREE) {
        s->parent[y] = u;
        s->label[y] = INNER;
        int z = s->top[s->mate[y]];
        s->best[y] = s->best[z] = -1;
        s->label[z] = OUTER;
        push(s, z);
    } else if (s->label[y] == OUTER) {
        int base = meeting(s, x, y);
        if (base < 0) {
            augment(s, x, y);
            augment(s, y, x);
            return 1;
        }
        if (add_blossom(s, x, base, y) < 0) return -1;
    }
    return 0;
}

/* One search from every free node; 1 after an augmentation, 0 when every vertex is matched,
 * -1 when no perfect matching exists (not for a complete graph) or the solver failed. */
static int search(Solver *s) {
    for (int x = 0; x < s->used; x++) {
        s->label[x] = FREE;
        s->best[x] = -1;
    }
    s->head = s->tail = 0;
    int roots = 0;
    for (int x = 0; x < s->used; x++) {
        if (s->top[x] != x || s->mate[x] >= 0) continue;
        s->parent[x] = -1;
        s->label[x] = OUTER;
        push(s, x);
        roots++;
    }
    if (!roots) return 0;
    for (;;) {
        while (s->head < s->tail) {
            int u = s->queue[s->head++], x = s->top[u];
            if (s->label[x] != OUTER) continue;
            for (int v = 0; v < s->n; v++) {
                int y = s->top[v];
                if (y == x) continue;
                if (slack(s, u, v) == 0) {
                    int r = tight(s, u, v);
                    if (r) return r;
                    x = s->top[u];
                } else {
                    offer(s, u, y);
                }
            }
        }
        const wide none = -1;
        wide delta = none;
        for (int b = s->n; b < s->used; b++)
            if (s->top[b] == b && s->label[b] == INNER && (delta < 0 || s->dual[b] / 2 < delta))
                delta = s->dual[b] / 2;
        for (int x = 0; x < s->used; x++) {
            if (s->top[x] != x || s->best[x] < 0 || s->label[x] == INNER) continue;
            wide d = edge_slack(s, s->best[x], x);
            if (s->label[x] == OUTER) d /= 2;
            if (delta < 0 || d < delta) delta = d;
        }
        if (delta < 0) return -1;
        for (int u = 0; u < s->n; u++) {
            int l = s->label[s->top[u]];
            if (l == OUTER) s->dual[u] -= delta;
            else if (l == INNER) s->dual[u] += delta;
        }
        for (int b = s->n; b < s->used; b++) {
            if (s->top[b] != b) continue;
            if (s->label[b] == OUTER) s->dual[b] += 2 * delta;
            else if (s->label[b] == INNER) s->dual[b] -= 2 * delta;
        }
        s->head = s->tail = 0;
        for (int x = 0; x < s->used; x++) {
            int u = s->best[x];
            if (s->top[x] != x || u < 0 || s->top[u] == x) continue;
            if (edge_slack(s, u, x) != 0) continue;
            int r = tight(s, u, s->end[(size_t)x * s->cap + u]);
            if (r) return r;
        }
        for (int b = s->n; b < s->used; b++)
            if (s->top[b] == b && s->label[b] == INNER && s->dual[b] == 0) expand(s, b);
    }
}

/* A feasible start closer to the optimum: each vertex's dual lowered, in turn, until one of
 * its edges is tight (every other constraint still holds), then the tight edges matched
 * greedily in vertex order. Every dual keeps the parity of the first, so the dual steps of
 * the search stay integers. */
static void start(Solver *s) {
    int n = s->n;
    for (int u = 0; u < n; u++) {
        const wide *row = s->w + (size_t)u * n;
        wide need = 0;
        int first = 1;
        for (int v = 0; v < n; v++) {
            if (v == u) continue;
            wide d = row[v] - s->dual[v];
            if (first || d > need) need = d;
            first = 0;
        }
        s->dual[u] = need;
    }
    for (int u = 0; u < n; u++) {
        if (s->mate[u] >= 0) continue;
        for (int v = u + 1; v < n; v++)
            if (s->mate[v] < 0 && slack(s, u, v) == 0) {
                s->mate[u] = v;
                s->mate[v] = u;
                break;
            }
    }
}

static void release(Solver *s) {
    free(s->w);
    free(s->dual);
    free(s->top);
    free(s->mate);
    free(s->label);
    free(s->parent);
    free(s->best);
    free(s->end);
    free(s->owner);
    free(s->kids);
    free(s->nkids);
    free(s->seen);
    free(s->queue);
}

/* 0 on success, -1 out of memory, -2 no perfect matching (solver failure). */
static int solve(const int64_t *weights, int n, int *out) {
    Solver s;
    memset(&s, 0, sizeof s);
    s.n = n;
    s.cap = 2 * n;
    s.used = n;
    size_t cap = (size_t)s.cap;
    s.w = malloc(sizeof(wide) * (size_t)n * (size_t)n);
    s.dual = malloc(sizeof(wide) * cap);
    s.top = malloc(sizeof(int) * cap);
    s.mate = malloc(sizeof(int) * cap);
    s.label = malloc(sizeof(int) * cap);
    s.parent = malloc(sizeof(int) * cap);
    s.best = malloc(sizeof(int) * cap);
    s.end = malloc(sizeof(int) * cap * cap);
    s.owner = malloc(sizeof(int) * cap * (size_t)n);
    s.kids = malloc(sizeof(int) * cap * (size_t)n);
    s.nkids = calloc(cap, sizeof(int));
    s.seen = calloc(cap, sizeof(int));
    s.queue = malloc(sizeof(int) * (size_t)(n + 1));
    if (!s.w || !s.dual || !s.top || !s.mate || !s.label || !s.parent || !s.best || !s.end ||
        !s.owner || !s.kids || !s.nkids || !s.seen || !s.queue) {
        release(&s);
        return -1;
    }
    int64_t least = 0;
    int first = 1;
    for (int u = 0; u < n; u++)
        for (int v = 0; v < n; v++)
            if (u != v && (first || weights[(size_t)u * n + v] < least)) {
                least = weights[(size_t)u * n + v];
                first = 0;
            }
    wide top_weight = 0;
    for (int u = 0; u < n; u++)
        for (int v = 0; v < n; v++) {
            wide x = u == v ? 0 : 2 * ((wide)weights[(size_t)u * n + v] - (wide)least);
            s.w[(size_t)u * n + v] = x;
            if (x > top_weight) top_weight = x;
        }
    for (int x = 0; x < s.cap; x++) {
        s.top[x] = x < n ? x : -1;
        s.mate[x] = -1;
        s.label[x] = FREE;
        s.best[x] = -1;
        s.dual[x] = x < n ? top_weight / 2 : 0;
    }
    for (int u = 0; u < n; u++)
        for (int v = 0; v < n; v++) s.end[(size_t)u * cap + v] = u;
    start(&s);
    int r;
    while ((r = search(&s)) == 1) {
    }
    if (r == 0)
        for (int v = 0; v < n; v++) out[v] = s.mate[v];
    release(&s);
    return r == 0 ? 0 : -2;
}

static PyObject *perfect_matching(PyObject *self, PyObject *arg) {
    (void)self;
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return NULL;
    int ok = view.ndim == 2 && view.itemsize == 8 && view.format &&
             (strcmp(view.format, "q") == 0 || strcmp(view.format, "l") == 0 ||
              strcmp(view.format, "<q") == 0 || strcmp(view.format, "<l") == 0 ||
              strcmp(view.format, "=q") == 0 || strcmp(view.format, "=l") == 0) &&
             view.shape[0] == view.shape[1];
    if (!ok) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_TypeError, "expected a square C-contiguous int64 matrix");
        return NULL;
    }
    Py_ssize_t n = view.shape[0];
    if (n % 2 || n > MAX_VERTICES) {
        PyBuffer_Release(&view);
        PyErr_Format(PyExc_ValueError, "a perfect matching needs an even number of vertices "
                     "(at most %d), not %zd", MAX_VERTICES, n);
        return NULL;
    }
    const int64_t *w = (const int64_t *)view.buf;
    for (Py_ssize_t u = 0; u < n; u++)
        for (Py_ssize_t v = u + 1; v < n; v++)
            if (w[u * n + v] != w[v * n + u]) {
                PyBuffer_Release(&view);
                PyErr_Format(PyExc_ValueError, "the weights must be symmetric: [%zd, %zd] is "
                             "not [%zd, %zd]", u, v, v, u);
                return NULL;
            }
    int *out = malloc(sizeof(int) * (size_t)(n ? n : 1));
    if (!out) {
        PyBuffer_Release(&view);
        return PyErr_NoMemory();
    }
    int r = 0;
    if (n) {
        Py_BEGIN_ALLOW_THREADS
        r = solve(w, (int)n, out);
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&view);
    if (r == -1) {
        free(out);
        return PyErr_NoMemory();
    }
    if (r == -2) {
        free(out);
        PyErr_SetString(PyExc_RuntimeError, "the matching found no perfect matching");
        return NULL;
    }
    PyObject *mates = PyList_New(n);
    if (!mates) {
        free(out);
        return NULL;
    }
    for (Py_ssize_t v = 0; v < n; v++) PyList_SET_ITEM(mates, v, PyLong_FromLong(out[v]));
    free(out);
    return mates;
}

static PyMethodDef methods[] = {
    {"perfect_matching", perfect_matching, METH_O,
     "perfect_matching(weights) -> list[int]: each vertex's mate in a maximum-weight perfect "
     "matching of the complete graph whose weights are the square int64 matrix (diagonal "
     "ignored)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_perfect_matching",
    "Maximum-weight perfect matching of a dense integer matrix (Edmonds' blossom method).", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__perfect_matching(void) { return PyModule_Create(&module); }
