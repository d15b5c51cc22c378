/* Whole random deals in C: the loop of `bench.run` (a seed drawn, the deal dealt, `State.random_playout`, the
 * settlement), with Python's Mersenne Twister, so that every deal takes the same random numbers and ends as the
 * engine ends it. It knows mechanics, never games: `engine/whole.py` lowers a ruleset into the tables below
 * (the deal as a permutation, the ante per dealer, the auction as a tree of legal lists it explored with the
 * engine, each contract's trump, exchange limits and claim, the play kernel's tables, the settlement
 * programs) and only for rulesets whose deals these tables describe. A deal that reaches anything else (a
 * claim to decide, a settlement the machine declines) is handed back: `run` stops before it and gives what
 * Python needs to play it itself from the same random numbers. */
#include "kernel.h"
#include <structmember.h>

#define MT_N 624
#define MT_M 397
#define MAX_HISTORY 1024
#define K_MAXCONTRACTS 4096  /* contracts a deal machine takes */

typedef struct {
    uint32_t mt[MT_N];
    int index;
} MT;

static uint32_t mt_next(MT *g)
{
    uint32_t y;
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t *mt = g->mt;
    if (g->index >= MT_N) {
        int kk;
        for (kk = 0; kk < MT_N - MT_M; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + MT_M] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        for (; kk < MT_N - 1; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + (MT_M - MT_N)] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        y = (mt[MT_N - 1] & 0x80000000U) | (mt[0] & 0x7fffffffU);
        mt[MT_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ mag01[y & 0x1U];
        g->index = 0;
    }
    y = mt[g->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

/* random.random(): 53 bits */
static double mt_random(MT *g)
{
    uint32_t a = mt_next(g) >> 5, b = mt_next(g) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

static int pick(MT *g, int n) { return (int)(mt_random(g) * (double)n); }

/* Random.getstate()'s middle item (624 words and the index) in and out */
static int mt_from(PyObject *o, MT *g)
{
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != MT_N + 1) {
        PyErr_SetString(PyExc_ValueError, "a Mersenne Twister state: 625 ints");
        return -1;
    }
    for (int k = 0; k < MT_N; k++) {
        PyObject *w = PyTuple_GET_ITEM(o, k);
        unsigned long long v = PyLong_Check(w) ? PyLong_AsUnsignedLongLong(w) : (unsigned long long)-1;
        if (v > 0xffffffffULL) {  /* not an int, negative, or beyond 32 bits (long may be 32 bits here) */
            PyErr_Clear();
            PyErr_SetString(PyExc_ValueError, "a state word must be from 0 to 2**32 - 1");
            return -1;
        }
        g->mt[k] = (uint32_t)v;
    }
    long index;
    if (k_int(PyTuple_GET_ITEM(o, MT_N), 0, MT_N, &index, "the state's index") < 0)
        return -1;
    g->index = (int)index;
    return 0;
}

static PyObject *mt_to(const MT *g)
{
    PyObject *t = PyTuple_New(MT_N + 1);
    if (t == NULL)
        return NULL;
    for (int k = 0; k <= MT_N; k++) {
        PyObject *v = k < MT_N ? PyLong_FromUnsignedLong(g->mt[k]) : PyLong_FromLong(g->index);
        if (v == NULL) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, k, v);
    }
    return t;
}

/* the header's items */
enum { H_SEATS, H_CARDS, H_SUITS, H_A_DISCARD, H_A_DRAW, H_A_CEDE, H_A_TRUMP, H_TALON, H_IN_PLAY, H_CONTRACTS, H_N };
/* a contract's items */
enum { C_TRUMP_MODE, C_FIXED, C_DEFENDERS, C_CEDED, C_DMIN, C_DMAX, C_FMIN, C_FMAX, C_OMIN, C_OMAX, C_CLAIM_AT,
       C_HIGH, C_N };
enum { TM_NAMED, TM_TURNED, TM_FIXED, TM_NONE };
enum { T_ALL_PASS, T_BEGIN, T_UNPLAYED };

typedef struct {
    PyObject_HEAD
    int n, ncards, nsuits, a_discard, a_draw, a_cede, a_trump, talon, tn, ncontracts;
    int32_t *next_seat, *dest, *ante_pay, *ante_pool, *orders, *rings, *roots, *node_off, *acts, *child, *terms, *cons;
    int32_t *first_leader, *suit_of;
    int nnodes, nacts, nterms;
    PyObject *tables;    /* per contract and trump (none first): Tables or None */
    PyObject *trump_orders;
    PyObject *settle;    /* per contract: its settlement Program; then the all-pass one */
    PyObject *claims;    /* per contract: its claim condition Program, or None */
    int8_t *torder;      /* the trump orders as card numbers: per (contract, trump + 1), from torder_off */
    int32_t *torder_off;
} KDeals;

static int deals_traverse(KDeals *self, visitproc visit, void *arg)
{
    Py_VISIT(self->tables);
    Py_VISIT(self->trump_orders);
    Py_VISIT(self->settle);
    Py_VISIT(self->claims);
    return 0;
}

static int deals_clear(KDeals *self)
{
    Py_CLEAR(self->tables);
    Py_CLEAR(self->trump_orders);
    Py_CLEAR(self->settle);
    Py_CLEAR(self->claims);
    return 0;
}

static void deals_dealloc(KDeals *self)
{
    PyObject_GC_UnTrack(self);
    int32_t **arrays[] = {&self->next_seat, &self->dest, &self->ante_pay, &self->ante_pool, &self->orders, &self->rings,
                          &self->roots, &self->node_off, &self->acts, &self->child, &self->terms, &self->cons,
                          &self->first_leader, &self->suit_of, &self->torder_off};
    for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++)
        PyMem_Free(*arrays[k]);
    PyMem_Free(self->torder);
    deals_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* a tuple of ints, each from lo to hi, of `want` items (-1: any number, given back in *got) */
static int32_t *ints(PyObject *o, Py_ssize_t want, long lo, long hi, Py_ssize_t *got, const char *what)
{
    if (!PyTuple_Check(o) || (want >= 0 && PyTuple_GET_SIZE(o) != want)) {
        PyErr_Format(PyExc_ValueError, "%s: a tuple of %zd ints", what, want);
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(o);
    int32_t *out = PyMem_Malloc(sizeof(int32_t) * (size_t)(n + 1));
    if (out == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        long v;
        if (k_int(PyTuple_GET_ITEM(o, k), lo, hi, &v, what) < 0) {
            PyMem_Free(out);
            return NULL;
        }
        out[k] = (int32_t)v;
    }
    if (got != NULL)
        *got = n;
    return out;
}

/* Deals(header, next_seat, dest, ante_pay, ante_pool, orders, roots, node_off, acts, child, terms, contracts,
 *       first_leader, suit_of, tables, trump_orders, settle, claims, rings) */
static PyObject *deals_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    PyObject *a[19];
    if (kw != NULL && PyDict_GET_SIZE(kw)) {
        PyErr_SetString(PyExc_TypeError, "Deals takes no keywords");
        return NULL;
    }
    if (!PyArg_UnpackTuple(args, "Deals", 19, 19, &a[0], &a[1], &a[2], &a[3], &a[4], &a[5], &a[6], &a[7], &a[8],
                           &a[9], &a[10], &a[11], &a[12], &a[13], &a[14], &a[15], &a[16], &a[17], &a[18]))
        return NULL;
    KDeals *self = (KDeals *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    int32_t *h = ints(a[0], H_N, 0, 1L << 24, NULL, "header");
    if (h == NULL)
        goto fail;
    self->n = h[H_SEATS];
    self->ncards = h[H_CARDS];
    self->nsuits = h[H_SUITS];
    self->a_discard = h[H_A_DISCARD];
    self->a_draw = h[H_A_DRAW];
    self->a_cede = h[H_A_CEDE];
    self->a_trump = h[H_A_TRUMP];
    self->talon = h[H_TALON];
    self->tn = h[H_IN_PLAY];
    self->ncontracts = h[H_CONTRACTS];
    PyMem_Free(h);
    int n = self->n, nc = self->ncards, ns = self->nsuits, nk = self->ncontracts;
    if (n < 1 || n > K_MAXSEATS || nc < 1 || nc > K_MAXCARDS || ns < 1 || ns > 64 || self->talon > nc
            || self->tn < 1 || self->tn > n || nk < 1 || nk > K_MAXCONTRACTS) {
        PyErr_SetString(PyExc_ValueError, "Deals: a header out of range");
        goto fail;
    }
    Py_ssize_t nn, na, nt;
    if ((self->next_seat = ints(a[1], n, 0, n - 1, NULL, "next seat")) == NULL
            || (self->dest = ints(a[2], (Py_ssize_t)n * nc, 0, n + self->talon - 1, NULL, "a card's place")) == NULL
            || (self->ante_pay = ints(a[3], (Py_ssize_t)n * n, -(1L << 24), 1L << 24, NULL, "the ante")) == NULL
            || (self->ante_pool = ints(a[4], n, -(1L << 24), 1L << 24, NULL, "the ante's pool")) == NULL
            || (self->orders = ints(a[5], (Py_ssize_t)n * n * self->tn, 0, n - 1, NULL, "an order of play")) == NULL
            || (self->rings = ints(a[18], (Py_ssize_t)n * n, 0, n - 1, NULL, "a next seat in play")) == NULL
            || (self->node_off = ints(a[7], -1, 0, INT32_MAX, &nn, "a node's place")) == NULL)
        goto fail;
    self->nnodes = (int)nn - 1;
    if (self->nnodes < 1 || self->node_off[0] != 0) {
        PyErr_SetString(PyExc_ValueError, "Deals: no auction");
        goto fail;
    }
    if ((self->roots = ints(a[6], n, 0, self->nnodes - 1, NULL, "a root")) == NULL
            || (self->terms = ints(a[10], -1, -1, 1L << 20, &nt, "a terminal")) == NULL)
        goto fail;
    self->nterms = (int)(nt / 3);
    if (nt % 3) {
        PyErr_SetString(PyExc_ValueError, "Deals: terminals of three items");
        goto fail;
    }
    for (int k = 0; k < self->nterms; k++) {
        int32_t *t = &self->terms[3 * k];
        if (t[0] < T_ALL_PASS || t[0] > T_UNPLAYED || t[1] < -1 || t[1] >= n || t[2] < -1 || t[2] >= nk
                || (t[0] != T_ALL_PASS && (t[1] < 0 || t[2] < 0))) {
            PyErr_SetString(PyExc_ValueError, "Deals: a terminal out of range");
            goto fail;
        }
    }
    if ((self->acts = ints(a[8], -1, 0, INT32_MAX, &na, "an action")) == NULL
            || (self->child = ints(a[9], na, -self->nterms, self->nnodes - 1, NULL, "a child")) == NULL)
        goto fail;
    self->nacts = (int)na;
    for (int k = 0; k < self->nnodes; k++)
        if (self->node_off[k + 1] <= self->node_off[k] || self->node_off[k + 1] > self->nacts) {
            PyErr_SetString(PyExc_ValueError, "Deals: a node's actions out of range");
            goto fail;
        }
    if ((self->cons = ints(a[11], (Py_ssize_t)nk * C_N, -1, 1L << 20, NULL, "a contract")) == NULL
            || (self->first_leader = ints(a[12], (Py_ssize_t)nk * n * n, 0, n - 1, NULL, "a first leader")) == NULL
            || (self->suit_of = ints(a[13], nc, 0, ns - 1, NULL, "a card's suit")) == NULL)
        goto fail;
    for (int c = 0; c < nk; c++) {
        int32_t *k = &self->cons[c * C_N];
        if (k[C_TRUMP_MODE] < TM_NAMED || k[C_TRUMP_MODE] > TM_NONE || k[C_FIXED] < -1 || k[C_FIXED] >= ns
                || (k[C_TRUMP_MODE] == TM_FIXED && k[C_FIXED] < 0) || k[C_DMIN] < 0 || k[C_DMAX] < 0
                || k[C_FMIN] < 0 || k[C_FMAX] < 0 || k[C_OMIN] < 0 || k[C_OMAX] < 0) {
            PyErr_SetString(PyExc_ValueError, "Deals: a contract out of range");
            goto fail;
        }
    }
    Py_ssize_t nctx = (Py_ssize_t)nk * (ns + 1);
    PyObject *tabs = a[14], *tos = a[15], *settle = a[16], *claims = a[17];
    if (!PyTuple_Check(tabs) || PyTuple_GET_SIZE(tabs) != nctx || !PyTuple_Check(tos) || PyTuple_GET_SIZE(tos) != nctx
            || !PyTuple_Check(settle) || PyTuple_GET_SIZE(settle) != nk + 1 || !PyTuple_Check(claims)
            || PyTuple_GET_SIZE(claims) != nk) {
        PyErr_SetString(PyExc_ValueError, "Deals: tables, trump orders, settlements and claims by contract");
        goto fail;
    }
    for (Py_ssize_t k = 0; k < nctx; k++) {
        PyObject *t = PyTuple_GET_ITEM(tabs, k);
        if (t != Py_None && (!PyObject_TypeCheck(t, &KTables_Type) || ((KTables *)t)->ncards != nc)) {
            PyErr_SetString(PyExc_TypeError, "Deals: tables must be Tables of the deck, or None");
            goto fail;
        }
    }
    for (Py_ssize_t k = 0; k <= nk; k++)
        if (!k_is_program(PyTuple_GET_ITEM(settle, k))) {
            PyErr_SetString(PyExc_TypeError, "Deals: a settlement must be a Program");
            goto fail;
        } else if (!k_program_fits(PyTuple_GET_ITEM(settle, k), nc, ns, nk, 0)) {
            PyErr_SetString(PyExc_ValueError, "Deals: a settlement program of another deck or contracts");
            goto fail;
        }
    for (Py_ssize_t k = 0; k < nk; k++) {
        PyObject *c = PyTuple_GET_ITEM(claims, k);
        if (c != Py_None && !k_is_program(c)) {
            PyErr_SetString(PyExc_TypeError, "Deals: a claim must be a Program or None");
            goto fail;
        }
        if (c != Py_None && !k_program_fits(c, nc, ns, nk, 1)) {
            PyErr_SetString(PyExc_ValueError, "Deals: a claim program of another deck or contracts, or not a condition");
            goto fail;
        }
    }
    self->torder_off = PyMem_Malloc(sizeof(int32_t) * (size_t)(nctx + 1));
    self->torder = PyMem_Malloc((size_t)(nctx * nc + 1));
    if (self->torder_off == NULL || self->torder == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    self->torder_off[0] = 0;
    for (Py_ssize_t k = 0; k < nctx; k++) {
        Py_ssize_t m;
        int32_t *cards = ints(PyTuple_GET_ITEM(tos, k), -1, 0, nc - 1, &m, "a trump order");
        if (cards == NULL)
            goto fail;
        if (m > nc) {
            PyMem_Free(cards);
            PyErr_SetString(PyExc_ValueError, "Deals: a trump order longer than the deck");
            goto fail;
        }
        for (Py_ssize_t j = 0; j < m; j++)
            self->torder[self->torder_off[k] + j] = (int8_t)cards[j];
        self->torder_off[k + 1] = self->torder_off[k] + (int32_t)m;
        PyMem_Free(cards);
    }
    Py_INCREF(tabs);
    self->tables = tabs;
    Py_INCREF(tos);
    self->trump_orders = tos;
    Py_INCREF(settle);
    self->settle = settle;
    Py_INCREF(claims);
    self->claims = claims;
    return (PyObject *)self;
fail:
    Py_DECREF(self);
    return NULL;
}

/* one deal as it goes */
typedef struct {
    KFacts f;
    int talon[K_MAXCARDS], ttop, tend;  /* the talon: its cards from ttop to tend */
    int32_t history[MAX_HISTORY];
    int nh;
    int64_t pay[K_MAXSEATS];
} Deal;

enum { DONE_OK = 0, HAND_BACK = 1, FAILED = -1 };

/* one action more in the deal's history; a history longer than the machine keeps: the engine plays the deal */
static int hist(Deal *d, int a)
{
    if (d->nh >= MAX_HISTORY)
        return -1;
    d->history[d->nh++] = a;
    return 0;
}

/* the exchange of `_continue_exchange` and `_random_exchange`, from the queue of exchangers */
static int exchange(KDeals *D, Deal *d, MT *g, const int32_t *k)
{
    int queue[2 * K_MAXSEATS], nq = 0, ceded = 0, first_used = 0;
    const KFacts *f = &d->f;
    if (k[C_DEFENDERS])
        for (int j = 0; j < f->norder; j++)
            queue[nq++] = f->order[j];
    else
        queue[nq++] = f->declarer;
    while (nq > 0) {
        int seat = queue[0], first_defender = 0, lo, hi;
        memmove(queue, queue + 1, sizeof(int) * (size_t)--nq);
        if (seat == f->declarer) {
            lo = k[C_DMIN];
            hi = k[C_DMAX];
        } else {
            first_defender = !first_used;
            lo = first_defender ? k[C_FMIN] : k[C_OMIN];
            hi = first_defender ? k[C_FMAX] : k[C_OMAX];
            first_used = 1;
        }
        int held = k_popcount(d->f.hands[seat]), room = d->tend - d->ttop;
        int cap = hi < room ? hi : room;
        if (held < cap)
            cap = held;
        if (cap <= 0)
            continue;
        lo = lo < 0 ? 0 : (lo > cap ? cap : lo);
        int can_cede = first_defender && k[C_CEDED] && !ceded && nq > 0;
        int count = 0, cede = can_cede, i, n, draw;
        for (;;) {
            n = count < cap ? k_popcount(d->f.hands[seat]) : 0;
            draw = count >= lo;
            i = pick(g, n + draw + cede);
            if (i >= n)
                break;
            int c = k_nth(d->f.hands[seat], i);
            if (hist(d, D->a_discard + c) < 0)
                return HAND_BACK;
            d->f.hands[seat] ^= (mask_t)1 << c;
            d->f.discards[seat] |= (mask_t)1 << c;
            count++;
            cede = 0;
        }
        if (i == n && draw) {
            if (hist(d, D->a_draw) < 0)
                return HAND_BACK;
            for (int j = 0; j < count; j++) {
                d->f.hands[seat] |= (mask_t)1 << d->talon[d->ttop++];
            }
        } else if (cede) {  /* he cedes: he comes after the next exchanger, who is then the first defender */
            if (hist(d, D->a_cede) < 0)
                return HAND_BACK;
            ceded = 1;
            first_used = 0;
            memmove(queue + 2, queue + 1, sizeof(int) * (size_t)(nq - 1));
            queue[1] = seat;
            nq++;
        } else {
            return HAND_BACK;  /* nothing open: Python refuses it as it always did */
        }
    }
    return DONE_OK;
}

/* whether the claim opens at this trick (the leader may claim and the condition holds): hand back then */
static int claim_opens(KDeals *D, Deal *d, int contract, int leader)
{
    PyObject *prog = PyTuple_GET_ITEM(D->claims, contract);
    if (d->f.committed || leader != d->f.declarer)
        return 0;
    if (prog == Py_None)
        return 1;  /* no condition: it opens */
    int64_t out = 0, pool = 0, pay[K_MAXSEATS] = {0};
    int rc = k_program_facts(prog, &d->f, pay, d->f.n, &pool, &out);
    if (rc < 0)
        return -1;
    return rc == 1 ? 1 : (int)out;  /* declined: hand back, Python asks it */
}

/* the tricks of `_random_tricks` on the kernel's tables */
static int tricks(KDeals *D, Deal *d, MT *g, const KTables *t, int contract, int high, int claim_at)
{
    const int32_t *nx = &D->rings[d->f.dealer * D->n];
    int played = 0, seat = D->first_leader[(contract * D->n + d->f.dealer) * D->n + d->f.declarer];
    if (claim_at == 0) {
        int c = claim_opens(D, d, contract, seat);
        if (c != 0)
            return c < 0 ? FAILED : HAND_BACK;
    }
    const int nc = t->ncards;
    for (;;) {
        mask_t hand = d->f.hands[seat];
        int leader = seat;
        if (hand == 0)
            return HAND_BACK;  /* a leader without cards: the engine says what that means */
        int a = k_nth(hand, pick(g, k_popcount(hand)));
        if (hist(d, a) < 0)
            return HAND_BACK;
        mask_t tm = (mask_t)1 << a;
        d->f.hands[seat] = hand ^ tm;
        const int32_t *row = t->key + t->eff[a] * nc;
        int32_t best = row[a];
        int best_seat = leader, led = a;
        for (int k = 1; k < D->tn; k++) {
            seat = nx[seat];
            hand = d->f.hands[seat];
            mask_t m = k_follow(t, led, hand);
            if (m == 0)
                return HAND_BACK;
            int c = k_nth(m, pick(g, k_popcount(m)));
            mask_t bit = (mask_t)1 << c;
            if (hist(d, c) < 0)
                return HAND_BACK;
            d->f.hands[seat] = hand ^ bit;
            tm |= bit;
            if (row[c] > best) {
                best = row[c];
                best_seat = seat;
                if (high && t->eff[c] == t->eff[led])
                    led = c;
            }
        }
        d->f.tricks[best_seat]++;
        d->f.won[best_seat] |= tm;
        seat = best_seat;
        played++;
        if (d->f.hands[seat] == 0)
            return DONE_OK;
        if (played == claim_at) {
            int c = claim_opens(D, d, contract, seat);
            if (c != 0)
                return c < 0 ? FAILED : HAND_BACK;
        }
    }
}

/* settle with the program: the outcome's string number, or hand back */
static int settle(KDeals *D, Deal *d, int which, int64_t *pool, int64_t *out)
{
    int rc = k_program_facts(PyTuple_GET_ITEM(D->settle, which), &d->f, d->pay, d->f.n, pool, out);
    return rc < 0 ? FAILED : rc == 1 ? HAND_BACK : DONE_OK;
}

/* one deal from its seed: DONE_OK (outcome and pool set), HAND_BACK or FAILED */
static int play_deal(KDeals *D, Deal *d, MT *g, long long seed, int dealer, int64_t *pool, int *contract,
                     int *prog, int64_t *outcome)
{
    int n = D->n, nc = D->ncards, order[K_MAXCARDS];
    memset(d, 0, sizeof *d);
    d->f.n = n;
    d->f.dealer = dealer;
    d->f.declarer = d->f.partner = d->f.contract = d->f.trump = -1;
    if (k_shuffle_into(nc, seed, order) < 0)
        return FAILED;
    for (int p = 0; p < nc; p++) {
        int to = D->dest[dealer * nc + p];
        if (to < n)
            d->f.hands[to] |= (mask_t)1 << order[p];
        else
            d->talon[to - n] = order[p];
    }
    d->ttop = 0;
    d->tend = D->talon;
    memcpy(d->f.deal_hands, d->f.hands, sizeof d->f.hands);
    int8_t players[K_MAXSEATS];  /* from forehand (the seat after the dealer in play) on */
    int fore = D->rings[dealer * n + dealer];
    for (int j = 0; j < D->tn; j++)
        players[j] = (int8_t)D->orders[(dealer * n + fore) * D->tn + j];
    d->f.players = players;
    d->f.nplayers = D->tn;
    for (int s = 0; s < n; s++)
        d->pay[s] = D->ante_pay[dealer * n + s];
    *pool += D->ante_pool[dealer];
    int node = D->roots[dealer], term;
    for (;;) {
        int off = D->node_off[node], i = off + pick(g, D->node_off[node + 1] - off);
        if (hist(d, D->acts[i]) < 0)
            return HAND_BACK;
        if (D->child[i] < 0) {
            term = -D->child[i] - 1;
            break;
        }
        node = D->child[i];
    }
    const int32_t *t = &D->terms[3 * term];
    *contract = t[2];
    if (t[0] == T_ALL_PASS) {
        *prog = D->ncontracts;
        return settle(D, d, D->ncontracts, pool, outcome);
    }
    int c = t[2];
    d->f.declarer = t[1];
    d->f.contract = c;
    int8_t ord[K_MAXSEATS];
    for (int j = 0; j < D->tn; j++)
        ord[j] = (int8_t)D->orders[(dealer * n + d->f.declarer) * D->tn + j];
    d->f.order = ord;
    d->f.norder = D->tn;
    *prog = c;
    if (t[0] == T_UNPLAYED)
        return settle(D, d, c, pool, outcome);
    const int32_t *k = &D->cons[c * C_N];
    int trump = -1;
    switch (k[C_TRUMP_MODE]) {
    case TM_NAMED:
        trump = pick(g, D->nsuits);
        if (hist(d, D->a_trump + trump) < 0)
            return HAND_BACK;
        break;
    case TM_TURNED:
        if (d->ttop >= d->tend)
            return HAND_BACK;
        trump = D->suit_of[d->talon[d->ttop]];
        break;
    case TM_FIXED:
        trump = k[C_FIXED];
        break;
    }
    int ctx = c * (D->nsuits + 1) + trump + 1;
    PyObject *tab = PyTuple_GET_ITEM(D->tables, ctx);
    if (tab == Py_None)
        return HAND_BACK;
    d->f.trump = trump;
    d->f.has_ctx = 1;
    d->f.trump_order = &D->torder[D->torder_off[ctx]];
    d->f.ntrump = D->torder_off[ctx + 1] - D->torder_off[ctx];
    int rc = exchange(D, d, g, k);
    if (rc != DONE_OK)
        return rc;
    memcpy(d->f.play_hands, d->f.hands, sizeof d->f.hands);
    d->f.played = 1;
    rc = tricks(D, d, g, (const KTables *)tab, c, k[C_HIGH], k[C_CLAIM_AT]);
    if (rc != DONE_OK)
        return rc;
    return settle(D, d, c, pool, outcome);
}

/* Deals.run(deals, state, dealer, pool, rows) -> (done, state, dealer, pool, actions, contracts, outcomes,
 * pending, rows): play up to `deals` deals from the Mersenne Twister state `state` (Random.getstate()[1]),
 * stopping before a deal it hands back; `pending` is then (seed, dealer, pool, the state after the seed was
 * drawn), else None. `contracts`: deals per contract number (the last: passed out); `outcomes`: ((program,
 * string number), deals) pairs; `rows` (when asked): per deal (history, payments, pool after). */
static PyObject *deals_run(KDeals *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "run(deals, state, dealer, pool, rows)");
        return NULL;
    }
    long want, dealer;
    MT g, at;
    if (k_int(args[0], 0, LONG_MAX, &want, "deals") < 0 || mt_from(args[1], &g) < 0
            || k_int(args[2], 0, self->n - 1, &dealer, "dealer") < 0)
        return NULL;
    int overflow;
    long long pool = PyLong_AsLongLongAndOverflow(args[3], &overflow);
    if ((pool == -1 && PyErr_Occurred()) || overflow || pool > (1LL << 50) || pool < -(1LL << 50)) {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "pool: an int of at most 50 bits");
        return NULL;
    }
    int rows = PyObject_IsTrue(args[4]);
    if (rows < 0)
        return NULL;
    int nk = self->ncontracts;
    long *by_contract = PyMem_Calloc((size_t)nk + 1, sizeof(long));
    PyObject *outcomes = PyDict_New(), *row_list = rows ? PyList_New(0) : Py_None;
    Deal *d = PyMem_Malloc(sizeof(Deal));
    PyObject *result = NULL, *pending = Py_None;
    Py_INCREF(Py_None);
    if (!rows)
        Py_INCREF(Py_None);
    if (by_contract == NULL || outcomes == NULL || row_list == NULL || d == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    long done = 0, actions = 0;
    while (done < want) {
        long long seed = mt_next(&g);
        at = g;
        int64_t p = pool, outcome = 0;
        int contract = -1, prog = -1;
        int rc = play_deal(self, d, &g, seed, (int)dealer, &p, &contract, &prog, &outcome);
        if (rc == FAILED) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_RuntimeError, "a deal the kernel could not play (a table out of step)");
            goto done;
        }
        if (rc == HAND_BACK) {
            PyObject *st = mt_to(&at);
            Py_DECREF(pending);
            pending = st == NULL ? NULL : Py_BuildValue("(LlLN)", seed, dealer, pool, st);
            if (pending == NULL)
                goto done;
            g = at;
            break;
        }
        by_contract[contract < 0 ? nk : contract]++;
        PyObject *key = Py_BuildValue("(iL)", prog, (long long)outcome);
        PyObject *old = key == NULL ? NULL : PyDict_GetItemWithError(outcomes, key);
        PyObject *cnt = key == NULL || (old == NULL && PyErr_Occurred()) ? NULL
                        : PyLong_FromLong(old == NULL ? 1 : PyLong_AsLong(old) + 1);
        int bad = cnt == NULL || PyDict_SetItem(outcomes, key, cnt) < 0;
        Py_XDECREF(key);
        Py_XDECREF(cnt);
        if (bad)
            goto done;
        if (rows) {
            int64_t hv[MAX_HISTORY];
            for (int j = 0; j < d->nh; j++)
                hv[j] = d->history[j];
            PyObject *h = k_tuple_i64(hv, d->nh), *pays = k_tuple_i64(d->pay, self->n);
            PyObject *row = h == NULL || pays == NULL ? NULL : Py_BuildValue("(NNL)", h, pays, (long long)p);
            if (row == NULL) {
                Py_XDECREF(h);
                Py_XDECREF(pays);
                goto done;
            }
            if (PyList_Append(row_list, row) < 0) {
                Py_DECREF(row);
                goto done;
            }
            Py_DECREF(row);
        }
        actions += d->nh;
        pool = p;
        dealer = self->next_seat[dealer];
        done++;
    }
    {
        int64_t cv[K_MAXCONTRACTS + 1];
        for (int j = 0; j <= nk; j++)
            cv[j] = by_contract[j];
        PyObject *counts = k_tuple_i64(cv, nk + 1), *st = mt_to(&g);
        if (counts != NULL && st != NULL)
            result = Py_BuildValue("(lNlLlNOOO)", done, st, dealer, pool, actions, counts, outcomes, pending, row_list);
        else {
            Py_XDECREF(counts);
            Py_XDECREF(st);
        }
    }
done:
    PyMem_Free(by_contract);
    PyMem_Free(d);
    Py_XDECREF(outcomes);
    Py_XDECREF(pending);
    Py_XDECREF(row_list);
    return result;
}

static PyMemberDef deals_members[] = {
    {"settle", T_OBJECT_EX, offsetof(KDeals, settle), READONLY, "the settlement programs, by contract (all-pass last)"},
    {NULL}};

static PyMethodDef deals_methods[] = {
    {"run", (PyCFunction)(void (*)(void))deals_run, METH_FASTCALL,
     "run(deals, state, dealer, pool, rows) -> (done, state, dealer, pool, actions, contracts, outcomes, pending, "
     "rows)"},
    {NULL}};

PyTypeObject KDeals_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ombre_rules.kernel._ckernel.Deals",
    .tp_basicsize = sizeof(KDeals),
    .tp_dealloc = (destructor)deals_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = (traverseproc)deals_traverse,
    .tp_clear = (inquiry)deals_clear,
    .tp_doc = "Whole random deals of a ruleset in C (engine/whole.py lowers the ruleset into it).",
    .tp_methods = deals_methods,
    .tp_members = deals_members,
    .tp_new = deals_new,
};
