/* The double-dummy search: alpha-beta over the cards still to play, every hand open, for a side (the declarer
 * and a partner) that counts tricks or card points, with a transposition table at the start of each trick,
 * move ordering, equivalent cards searched once and suits of alike cards keyed by their owners in rank order
 * (with the classes of the cards that are not all alike).
 *
 * The search works in its own card order: cards sorted by effective suit, then power high to low, so that a
 * suit is a run of bits and a higher card a lower bit. Masks are translated at the boundary (position, cards).
 * The deal may end early (`play.end_when` over trick counts): a Python callable answers for a vector of trick
 * counts, once per vector. The rules it cannot run (an excuse card, an early end that reads more than the
 * counts) are the caller's to keep away: it then uses the Python solver. */
#include "kernel.h"

#define INF (1 << 30)
#define WAYS 4
#define TT_FIRST 10 /* the transposition table starts with 2**10 buckets and grows as the search needs */
#define CHECK_EVERY 16384 /* nodes between two looks at the clock and at signals */

/* an entry: the position (live cards, the bits of their owners' seat numbers, the trick counts when the deal
 * may end early, the classes of the live cards of the suits keyed by rank order, the leader), the bounds on
 * the value of the rest, the best lead found. A bucket's tags (a
 * word of the hash each, 0 for a free slot) sit apart, four buckets to a cache line, so that a miss reads one
 * line and a hit two; so do the ages of its entries (the run that stored each, and the cards it had left), so
 * that choosing the entry to give away reads one line more, not each entry. */
typedef struct {
    uint64_t live, p0, p1, p2, counts, seq;
    int32_t lo, hi;
    uint8_t leader, move;
} Entry;

typedef struct {
    int n, leader, led, suit, best_seat;
    int32_t best;
    mask_t tm;
} Trick;

typedef struct {
    PyObject_HEAD
    KTables *t;
    PyObject *end;      /* None or end(tricks, left) -> bool */
    PyObject *clock;    /* time.perf_counter */
    int N, n, tn, high, aim, use_points, sure, counted, nsuits;
    int nxt[K_MAXSEATS], side[K_MAXSEATS];
    int8_t eff[K_MAXCARDS];
    int32_t power[K_MAXCARDS], points[K_MAXCARDS];
    int32_t *key;       /* key[s * N + i], in the search's order */
    uint8_t ord[K_MAXCARDS], pos[K_MAXCARDS]; /* search order -> card id, card id -> search order */
    uint8_t pord[K_MAXCARDS], prank[K_MAXCARDS]; /* by power rising: rank -> card, card -> rank */
    uint16_t row_off[K_MAXCARDS + 1];
    mask_t *bind, *must;
    mask_t suit[K_MAXSUITS], above[K_MAXCARDS], alike[K_MAXCARDS];
    mask_t alike_suits;  /* the cards of the suits keyed by their owners in rank order */
    uint64_t ordered;  /* the suits (by index) whose keys fall along the search's order in every key row */
    mask_t boss;       /* a suit ranked along the order above every other card in every key row (trumps) */
    uint64_t strict;   /* the suits (by index) that a hand holding one of their cards must follow when one is led */
    mask_t trumps;     /* the cards that can win a trick led in another suit, when they are `plain`: of one suit,
                        * and each above every card of any other suit led (else 0) */
    int plain;
    int nalike, alike_list[K_MAXSUITS];
    /* a suit of alike_list whose cards are not all alike: each card's class (alike cards share one) goes into
     * the key in rank order, `cls_bits` bits a card */
    uint8_t cls[K_MAXCARDS];
    int cls_bits[K_MAXSUITS];
    /* the position */
    mask_t hands[K_MAXSEATS], live;
    int tricks[K_MAXSEATS];
    int8_t owner[K_MAXCARDS];
    Trick root;
    int to_move, placed;
    /* the tables */
    Entry *tt;
    uint32_t *tags;
    uint16_t *ages;     /* by slot: the run (gen) << 8 | the cards left */
    size_t tt_mask, evicted;  /* buckets - 1; entries of this run given away since the table last grew */
    int tt_bits, tt_most;     /* the table has 2**tt_bits buckets and grows up to 2**tt_most */
    uint8_t gen;
    uint64_t *end_keys;
    int8_t *end_vals;
    size_t end_cap, end_used;
    /* the run */
    long long nodes, max_nodes, cap;
    double deadline;
    int abort, top, busy;
    PyThreadState *saved;
    int32_t hist[K_MAXSEATS][K_MAXCARDS]; /* leads that were best, weighted by the cards left: the order to try */
} KSearch;

enum { GO = 0, PAST_NODES = 1, PAST_TIME = 2, FAILED = 3 };

static PyObject *Stopped;  /* the exception of a search stopped by its limit */

static inline int32_t KEY(const KSearch *S, int suit, int c) { return S->key[suit * S->N + c]; }

static mask_t inward(const KSearch *S, mask_t m)
{
    mask_t r = 0;
    while (m) {
        r |= (mask_t)1 << S->pos[k_lowest(m)];
        m &= m - 1;
    }
    return r;
}

static mask_t outward(const KSearch *S, mask_t m)
{
    mask_t r = 0;
    while (m) {
        r |= (mask_t)1 << S->ord[k_lowest(m)];
        m &= m - 1;
    }
    return r;
}

static inline mask_t follow(const KSearch *S, int led, mask_t hand)
{
    for (int i = S->row_off[led]; i < S->row_off[led + 1]; i++)
        if (hand & S->bind[i])
            return hand & S->must[i];
    return hand;
}

static inline mask_t legal(const KSearch *S, const Trick *tr, int seat)
{
    mask_t hand = S->hands[seat];
    return tr->n ? follow(S, tr->led, hand) : hand;
}

static inline int32_t pts(const KSearch *S, mask_t m)
{
    int32_t s = 0;
    while (m) {
        s += S->points[k_lowest(m)];
        m &= m - 1;
    }
    return s;
}

/* -- the GIL: released while searching, taken back to call Python ------------------------------------- */
static inline void hold(KSearch *S)
{
    if (S->saved != NULL) {
        PyEval_RestoreThread(S->saved);
        S->saved = NULL;
    }
}

static inline void release(KSearch *S)
{
    if (S->saved == NULL)
        S->saved = PyEval_SaveThread();
}

static void check(KSearch *S)
{
    if (S->max_nodes >= 0 && S->nodes > S->max_nodes) {
        S->abort = PAST_NODES;
        return;
    }
    hold(S);
    if (PyErr_CheckSignals() < 0)
        S->abort = FAILED;
    else if (S->deadline >= 0) {
        PyObject *now = PyObject_CallNoArgs(S->clock);
        double t = now ? PyFloat_AsDouble(now) : -1.0;
        Py_XDECREF(now);
        if (PyErr_Occurred())
            S->abort = FAILED;
        else if (t > S->deadline)
            S->abort = PAST_TIME;
    }
    release(S);
    S->cap = S->nodes + CHECK_EVERY;
    if (S->max_nodes >= 0 && S->cap > S->max_nodes)
        S->cap = S->max_nodes;
}

/* -- an early end: the Python rule asked once per vector of trick counts ------------------------------ */
static uint64_t counts_key(const KSearch *S)
{
    uint64_t k = 0;
    for (int s = 0; s < S->n; s++)
        k |= (uint64_t)S->tricks[s] << (8 * s);
    return k;
}

static int end_insert(KSearch *S, uint64_t key, int8_t v)
{
    if (2 * (S->end_used + 1) > S->end_cap) {
        size_t cap = S->end_cap ? 2 * S->end_cap : 256;
        uint64_t *keys = PyMem_Calloc(cap, sizeof(uint64_t));
        int8_t *vals = PyMem_Calloc(cap, 1);
        if (keys == NULL || vals == NULL) {
            PyMem_Free(keys);
            PyMem_Free(vals);
            return -1;
        }
        for (size_t i = 0; i < S->end_cap; i++)
            if (S->end_keys[i]) {
                size_t j = (S->end_keys[i] * 0x9E3779B97F4A7C15ULL >> 20) & (cap - 1);
                while (keys[j])
                    j = (j + 1) & (cap - 1);
                keys[j] = S->end_keys[i];
                vals[j] = S->end_vals[i];
            }
        PyMem_Free(S->end_keys);
        PyMem_Free(S->end_vals);
        S->end_keys = keys;
        S->end_vals = vals;
        S->end_cap = cap;
    }
    size_t j = (key * 0x9E3779B97F4A7C15ULL >> 20) & (S->end_cap - 1);
    while (S->end_keys[j])
        j = (j + 1) & (S->end_cap - 1);
    S->end_keys[j] = key;
    S->end_vals[j] = v;
    S->end_used++;
    return 0;
}

/* whether the deal ends now (1), or not (0); -1 when the rule failed */
static int ended_early(KSearch *S, int left)
{
    uint64_t key = counts_key(S) + 1;  /* 0 marks a free slot */
    if (S->end_cap) {
        size_t j = (key * 0x9E3779B97F4A7C15ULL >> 20) & (S->end_cap - 1);
        while (S->end_keys[j]) {
            if (S->end_keys[j] == key)
                return S->end_vals[j];
            j = (j + 1) & (S->end_cap - 1);
        }
    }
    hold(S);
    int v = -1;
    PyObject *tricks = PyTuple_New(S->n);
    if (tricks != NULL) {
        for (int s = 0; s < S->n; s++)
            PyTuple_SET_ITEM(tricks, s, PyLong_FromLong(S->tricks[s]));
        PyObject *r = PyObject_CallFunction(S->end, "Oi", tricks, left);
        Py_DECREF(tricks);
        if (r != NULL) {
            v = PyObject_IsTrue(r);
            Py_DECREF(r);
        }
    }
    if (v >= 0 && end_insert(S, key, (int8_t)v) < 0) {
        PyErr_NoMemory();
        v = -1;
    }
    release(S);
    return v;
}

/* -- the transposition table ------------------------------------------------------------------------- */
static void make_key(const KSearch *S, int leader, Entry *k)
{
    mask_t live = S->live, rest = live & ~S->alike_suits;
    mask_t p0 = 0, p1 = 0, p2 = 0, clive = rest;
    uint64_t seq = 0;
    for (int s = 0; s < S->n; s++) {
        mask_t h = S->hands[s] & rest;
        if (s & 1)
            p0 |= h;
        if (s & 2)
            p1 |= h;
        if (s & 4)
            p2 |= h;
    }
    for (int j = 0; j < S->nalike; j++) {
        mask_t sm = S->suit[S->alike_list[j]], l = live & sm;
        int at = k_lowest(sm), w = S->cls_bits[S->alike_list[j]];
        while (l) {
            int c = k_lowest(l), o = S->owner[c];
            l &= l - 1;
            if (w)
                seq = seq << w | S->cls[c];
            mask_t b = (mask_t)1 << at++;
            clive |= b;
            if (o & 1)
                p0 |= b;
            if (o & 2)
                p1 |= b;
            if (o & 4)
                p2 |= b;
        }
    }
    k->live = clive;
    k->p0 = p0;
    k->p1 = p1;
    k->p2 = p2;
    k->counts = S->end != Py_None ? counts_key(S) : 0;
    k->seq = seq;
    k->leader = (uint8_t)leader;
}

static inline uint64_t hash_key(const Entry *k)
{
    uint64_t h = k->live * 0x9E3779B97F4A7C15ULL;
    h ^= (k->p0 + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
    h ^= (k->p1 + 0x165667B19E3779F9ULL) * 0x85EBCA77C2B2AE63ULL;
    h ^= (k->p2 + k->counts * 31 + k->leader) * 0x27D4EB2F165667C5ULL;
    h ^= (k->seq + 0x9FB21C651E98DF25ULL) * 0xD6E8FEB86659FD93ULL;
    h ^= h >> 29;
    return h * 0xBF58476D1CE4E5B9ULL;
}

static inline int same(const Entry *a, const Entry *b)
{
    return a->live == b->live && a->p0 == b->p0 && a->p1 == b->p1 && a->p2 == b->p2 && a->counts == b->counts
           && a->seq == b->seq && a->leader == b->leader;
}

/* the entry of key k (NULL: none); `at` gets its bucket and `tag` its tag */
static Entry *probe(KSearch *S, const Entry *k, size_t *at, uint32_t *tag)
{
    uint64_t h = hash_key(k);
    size_t b = (size_t)(h >> 17) & S->tt_mask;
    uint32_t t = (uint32_t)h | 1;
    *at = b;
    *tag = t;
    const uint32_t *tags = S->tags + b * WAYS;
    for (int i = 0; i < WAYS; i++)
        if (tags[i] == t && same(&S->tt[b * WAYS + i], k))
            return &S->tt[b * WAYS + i];
    return NULL;
}

/* keep the bounds of key k; its entry is found afresh: the search below it may have given its slot away */
/* the table at 2**bits buckets (empty); -1 with MemoryError */
static int tt_alloc(KSearch *S, int bits)
{
    Entry *tt = PyMem_Malloc(((size_t)1 << bits) * WAYS * sizeof(Entry));
    uint32_t *tags = PyMem_Calloc(((size_t)1 << bits) * WAYS, sizeof(uint32_t));
    uint16_t *ages = PyMem_Calloc(((size_t)1 << bits) * WAYS, sizeof(uint16_t));
    if (tt == NULL || tags == NULL || ages == NULL) {
        PyMem_Free(tt);
        PyMem_Free(tags);
        PyMem_Free(ages);
        return -1;
    }
    PyMem_Free(S->tt);
    PyMem_Free(S->tags);
    PyMem_Free(S->ages);
    S->tt = tt;
    S->tags = tags;
    S->ages = ages;
    S->tt_bits = bits;
    S->tt_mask = ((size_t)1 << bits) - 1;
    S->evicted = 0;
    return 0;
}

static void store(KSearch *S, const Entry *k, int32_t lo, int32_t hi, int move);

/* twice the buckets, the entries kept: once this run has given away as many entries as half the table holds
 * (no room is not an error: the table stays as it is) */
static void grow(KSearch *S)
{
    Entry *old = S->tt;
    uint32_t *tags = S->tags;
    uint16_t *ages = S->ages;
    size_t n = (S->tt_mask + 1) * WAYS;
    S->tt = NULL;
    S->tags = NULL;
    S->ages = NULL;
    if (tt_alloc(S, S->tt_bits + 1) < 0) {
        S->tt = old;
        S->tags = tags;
        S->ages = ages;
        S->tt_most = S->tt_bits;
        return;
    }
    for (size_t i = 0; i < n; i++)
        if (tags[i]) {
            size_t b;
            uint32_t tag;
            probe(S, &old[i], &b, &tag);
            uint32_t *t = S->tags + b * WAYS;
            for (int w = 0; w < WAYS; w++)
                if (!t[w]) {
                    t[w] = tag;
                    S->tt[b * WAYS + w] = old[i];
                    S->ages[b * WAYS + w] = ages[i];
                    break;
                }
        }
    PyMem_Free(old);
    PyMem_Free(tags);
    PyMem_Free(ages);
}

static void store(KSearch *S, const Entry *k, int32_t lo, int32_t hi, int move)
{
    size_t b;
    uint32_t tag;
    Entry *e = probe(S, k, &b, &tag);
    size_t at;
    if (e == NULL) {  /* a free slot, else one of an older run, else the one with the fewest cards left */
        uint32_t *tags = S->tags + b * WAYS;
        const uint16_t *ages = S->ages + b * WAYS;
        int v = -1;
        for (int i = 0; i < WAYS && v < 0; i++)
            if (!tags[i])
                v = i;
        if (v < 0) {
            v = 0;
            for (int i = 1; i < WAYS; i++) {
                int xo = (ages[i] >> 8) != S->gen, yo = (ages[v] >> 8) != S->gen;
                if (xo > yo || (xo == yo && (ages[i] & 0xFF) < (ages[v] & 0xFF)))
                    v = i;
            }
        }
        at = b * WAYS + (size_t)v;
        if (tags[v] && (ages[v] >> 8) == S->gen && ++S->evicted > (S->tt_mask + 1) * WAYS / 32
            && S->tt_bits < S->tt_most) {
            grow(S);
            store(S, k, lo, hi, move);
            return;
        }
        tags[v] = tag;
        e = &S->tt[at];
        *e = *k;
    } else
        at = (size_t)(e - S->tt);
    e->lo = lo;
    e->hi = hi;
    e->move = (uint8_t)move;
    S->ages[at] = (uint16_t)(S->gen << 8 | k_popcount(S->live));
}

/* -- the search ---------------------------------------------------------------------------------------- */
static int32_t node(KSearch *S, const Trick *tr, int seat, int32_t alpha, int32_t beta, int hint);

static int32_t last_trick(KSearch *S, int leader)
{
    S->nodes++;
    int seat = leader, c = k_lowest(S->hands[seat]), w = seat;
    int suit = S->eff[c];
    int32_t best = KEY(S, suit, c);
    mask_t tm = (mask_t)1 << c;
    for (int k = 1; k < S->tn; k++) {
        seat = S->nxt[seat];
        if (S->hands[seat] == 0) {
            S->abort = FAILED;
            hold(S);
            PyErr_SetString(PyExc_ValueError, "double-dummy search: a seat has no card for the last trick");
            release(S);
            return 0;
        }
        c = k_lowest(S->hands[seat]);
        tm |= (mask_t)1 << c;
        if (KEY(S, suit, c) > best) {
            best = KEY(S, suit, c);
            w = seat;
        }
    }
    if (!S->side[w])
        return 0;
    return S->use_points ? S->aim * pts(S, tm) : S->aim;
}

/* the highest key of the cards of m in a trick led in suit r (-1, the key of a card that cannot win, if none) */
static inline int32_t best_key(const KSearch *S, int r, mask_t m)
{
    int32_t best = -1;
    for (; m; m &= m - 1) {
        int32_t v = KEY(S, r, k_lowest(m));
        best = v > best ? v : best;
    }
    return best;
}

/* the cards of sm (of suit r) that beat every card of `out` (of the same suit) */
static inline int above_all(const KSearch *S, int r, mask_t sm, mask_t out)
{
    if (S->ordered >> r & 1)  /* a higher card is a lower bit */
        return k_popcount(out ? sm & (((mask_t)1 << k_lowest(out)) - 1) : sm);
    int32_t own = best_key(S, r, out);
    int n = 0;
    for (mask_t y = sm; y; y &= y - 1)
        n += KEY(S, r, k_lowest(y)) > own;
    return n;
}

/* quick() with plain trumps: a suit's cards above the others' are sure when it is the trump suit or no other
 * hand holds a trump; else they count as long as every hand that holds a trump has a card of the suit */
static int quick_plain(const KSearch *S, int seat, mask_t hand, mask_t others)
{
    int ruff = (others & S->trumps) != 0, k = 0;
    for (mask_t h = hand; h;) {
        int r = S->eff[k_lowest(h)];
        mask_t sm = hand & S->suit[r];
        h &= ~sm;
        int tops = above_all(S, r, sm, others & S->suit[r]);
        if (!ruff || (S->suit[r] & S->trumps)) {
            k += tops;
            continue;
        }
        if (!(S->strict >> r & 1))
            continue;
        int rounds = tops;
        for (int o = 0; o < S->n && rounds > 0; o++)
            if (o != seat && (S->hands[o] & S->trumps)) {
                int len = k_popcount(S->hands[o] & S->suit[r]);
                rounds = len < rounds ? len : rounds;
            }
        k += rounds;
    }
    return k;
}

/* sure tricks: the cards of the seat that beat every card the other hands hold, whatever is led: led one
 * after the other, each takes its trick and keeps the lead. In a suit ranked by its order (`ordered`) only the
 * highest card out counts. Besides, in a suit that must be followed (`strict`), the cards that beat every
 * other card of the suit are sure as many times as each other hand that could beat them from another suit (a
 * trump) still has a card of the suit: led first, each takes its trick, and the sure cards of the other
 * suits stay sure, as hands only lose cards. With `plain` trumps, the hands that could ruff are those that
 * hold a trump, the same for every suit, and they follow each suit so led: its sure cards add up over the
 * suits; otherwise the one suit that gives most counts. */
static int quick(const KSearch *S, int seat)
{
    mask_t hand = S->hands[seat], others = S->live & ~hand, h = hand;
    if (S->plain)
        return quick_plain(S, seat, hand, others);
    int top[K_MAXSUITS], nt = 0, k = 0, extra = 0;
    for (mask_t x = others; x;) {
        int c = k_lowest(x), s = S->eff[c];
        if (S->ordered >> s & 1) {
            top[nt++] = c;
            x &= ~S->suit[s];
        } else {
            top[nt++] = c;
            x &= x - 1;
        }
    }
    while (h) {
        int r = S->eff[k_lowest(h)];
        mask_t sm = hand & S->suit[r];
        h &= ~sm;
        int32_t most = -INF;
        for (int i = 0; i < nt; i++) {
            int32_t v = KEY(S, r, top[i]);
            most = v > most ? v : most;
        }
        int sure = 0;
        for (mask_t y = sm; y; y &= y - 1)
            sure += KEY(S, r, k_lowest(y)) > most;
        k += sure;
        if (!(S->strict >> r & 1))
            continue;
        /* the suit's best card out, and the cards above it */
        mask_t out = others & S->suit[r];
        int32_t own = best_key(S, r, out);
        int tops = above_all(S, r, sm, out);
        if (tops <= sure)
            continue;
        int rounds = tops;
        for (int o = 0; o < S->n && rounds > sure; o++) {
            mask_t ho = S->hands[o];
            int ruffs = 0;
            if (o == seat || !ho)
                continue;
            for (mask_t y = ho & ~S->suit[r]; y && !ruffs; y &= y - 1)
                ruffs = KEY(S, r, k_lowest(y)) > own;
            if (ruffs) {
                int len = k_popcount(ho & S->suit[r]);
                rounds = len < rounds ? len : rounds;
            }
        }
        int got = rounds - sure;
        extra = got > extra ? got : extra;
    }
    return k + extra;
}

static int32_t trick_start(KSearch *S, int leader, int32_t alpha, int32_t beta)
{
    int left = k_popcount(S->hands[leader]);
    if (left == 1)
        return last_trick(S, leader);
    int32_t lo, hi;
    int32_t most = S->use_points ? pts(S, S->live) : left;
    if (S->aim > 0) {
        lo = 0;
        hi = most;
    } else {
        lo = -most;
        hi = 0;
    }
    if (S->sure) {  /* the tricks the leader can take at once */
        int k = quick(S, leader);
        if (S->side[leader])
            lo = k;
        else
            hi = left - k;
    }
    mask_t boss = S->live & S->boss;
    if (boss && S->counted) {
        /* the highest cards out, when one hand holds them, each take a trick for its side however they are
         * played: the first beats every card, the next every card but the first, which is not in its trick */
        int o = S->owner[k_lowest(boss)], run = 0;
        for (; boss && S->owner[k_lowest(boss)] == o; boss &= boss - 1)
            run++;
        int32_t least = S->side[o] ? run : 0, most = S->side[o] ? left : left - run;  /* the side's tricks */
        if (S->aim > 0) {
            lo = lo > least ? lo : least;
            hi = hi < most ? hi : most;
        } else {
            lo = lo > -most ? lo : -most;
            hi = hi < -least ? hi : -least;
        }
    }
    if (lo >= beta)
        return lo;
    if (hi <= alpha)
        return hi;
    Entry k;
    size_t b;
    uint32_t tag;
    make_key(S, leader, &k);
    Entry *e = probe(S, &k, &b, &tag);
    int hint = -1;
    if (e != NULL) {
        if (e->lo >= beta)
            return e->lo;
        if (e->hi <= alpha)
            return e->hi;
        if (e->lo == e->hi)
            return e->lo;
        if (e->lo > lo)
            lo = e->lo;
        if (e->hi < hi)
            hi = e->hi;
        if (e->lo > alpha)
            alpha = e->lo;
        if (e->hi < beta)
            beta = e->hi;
        hint = e->move;
    }
    Trick tr = {0, leader, -1, -1, -1, -1, 0};
    int32_t v = node(S, &tr, leader, alpha, beta, hint);
    if (S->abort)
        return 0;
    if (v <= alpha)
        hi = v;
    else if (v >= beta)
        lo = v;
    else
        lo = hi = v;
    store(S, &k, lo, hi, S->top);
    return v;
}

static int32_t close_trick(KSearch *S, const Trick *tr, int32_t alpha, int32_t beta)
{
    int w = tr->best_seat;
    S->tricks[w]++;
    int32_t gain = S->side[w] ? (S->use_points ? S->aim * pts(S, tr->tm) : S->aim) : 0;
    int ended = S->hands[w] == 0;
    if (!ended && S->end != Py_None) {
        ended = ended_early(S, k_popcount(S->hands[w]));
        if (ended < 0) {
            S->abort = FAILED;
            S->tricks[w]--;
            return 0;
        }
    }
    int32_t v = ended ? gain : gain + trick_start(S, w, alpha - gain, beta - gain);
    S->tricks[w]--;
    return v;
}

/* play card c of `seat` to the trick (make), the value of the rest, take it back (unmake) */
static int32_t child(KSearch *S, const Trick *tr, int seat, int c, int32_t alpha, int32_t beta)
{
    mask_t bit = (mask_t)1 << c;
    S->hands[seat] ^= bit;
    S->live ^= bit;
    Trick t2 = *tr;
    if (tr->n == 0) {
        t2.leader = seat;
        t2.suit = S->eff[c];
        t2.led = c;
        t2.best = KEY(S, t2.suit, c);
        t2.best_seat = seat;
    } else {
        int32_t k = KEY(S, tr->suit, c);
        if (k > tr->best) {
            t2.best = k;
            t2.best_seat = seat;
            if (S->high && S->eff[c] == S->eff[tr->led])
                t2.led = c;
        }
    }
    t2.n++;
    t2.tm |= bit;
    int32_t v = t2.n == S->tn ? close_trick(S, &t2, alpha, beta) : node(S, &t2, S->nxt[seat], alpha, beta, -1);
    S->live ^= bit;
    S->hands[seat] ^= bit;
    return v;
}

/* the cards of m worth searching (one of each run of equivalent cards: the highest), in the order to try them */
static int moves(const KSearch *S, const Trick *tr, int seat, mask_t m, int hint, uint8_t *out)
{
    mask_t hand = S->hands[seat], others = (S->live | tr->tm) & ~hand, keep = 0, x = m;
    while (x) {
        int c = k_lowest(x);
        x &= x - 1;
        mask_t up = S->above[c] & (others | m);
        if (!up)
            keep |= (mask_t)1 << c;
        else {
            int d = k_highest(up);
            if (others >> d & 1 || !(S->alike[c] >> d & 1))
                keep |= (mask_t)1 << c;
        }
    }
    /* by power, rising */
    mask_t byp = 0;
    for (x = keep; x; x &= x - 1)
        byp |= (mask_t)1 << S->prank[k_lowest(x)];
    int k = 0, mine = S->side[seat];
    if (tr->n == 0) {
        if (hint >= 0 && keep >> hint & 1) {
            out[k++] = (uint8_t)hint;
            byp &= ~((mask_t)1 << S->prank[hint]);
        }
        int first = k;
        for (; byp; byp &= ~((mask_t)1 << k_highest(byp)))  /* highest first (lowest first: 43% more nodes) */
            out[k++] = S->pord[k_highest(byp)];
        const int32_t *h = S->hist[seat];
        for (int i = first + 1; i < k; i++)  /* the leads best before first, by how often and how early */
            for (int j = i; j > first && h[out[j]] > h[out[j - 1]]; j--) {
                uint8_t c = out[j];
                out[j] = out[j - 1];
                out[j - 1] = c;
            }
    } else if (S->side[tr->best_seat] == mine) {
        for (; byp; byp &= byp - 1)
            out[k++] = S->pord[k_lowest(byp)];
    } else {
        mask_t lose = 0;
        for (; byp; byp &= byp - 1) {
            int c = S->pord[k_lowest(byp)];
            if (KEY(S, tr->suit, c) > tr->best)
                out[k++] = (uint8_t)c;
            else
                lose |= byp & -byp;
        }
        for (; lose; lose &= lose - 1)
            out[k++] = S->pord[k_lowest(lose)];
    }
    return k;
}

static int32_t node(KSearch *S, const Trick *tr, int seat, int32_t alpha, int32_t beta, int hint)
{
    if (++S->nodes > S->cap) {
        check(S);
        if (S->abort)
            return 0;
    }
    mask_t m = legal(S, tr, seat);
    uint8_t mv[K_MAXCARDS];
    int k = moves(S, tr, seat, m, hint, mv);
    if (k == 0) {
        S->abort = FAILED;
        hold(S);
        PyErr_SetString(PyExc_ValueError, "double-dummy search: a seat has no legal card");
        release(S);
        return 0;
    }
    int top = mv[0];
    int32_t out;
    if (S->side[seat]) {
        out = -INF;
        for (int i = 0; i < k; i++) {
            int32_t v = child(S, tr, seat, mv[i], alpha, beta);
            if (S->abort)
                return 0;
            if (v > out) {
                out = v;
                top = mv[i];
                if (v > alpha) {
                    alpha = v;
                    if (alpha >= beta)
                        break;
                }
            }
        }
    } else {
        out = INF;
        for (int i = 0; i < k; i++) {
            int32_t v = child(S, tr, seat, mv[i], alpha, beta);
            if (S->abort)
                return 0;
            if (v < out) {
                out = v;
                top = mv[i];
                if (v < beta) {
                    beta = v;
                    if (alpha >= beta)
                        break;
                }
            }
        }
    }
    if (tr->n == 0) {
        int left = k_popcount(S->hands[seat]);
        if ((S->hist[seat][top] += left * left) > (1 << 28))
            for (int c = 0; c < S->N; c++)
                S->hist[seat][c] >>= 1;
    }
    S->top = top;
    return out;
}

/* -- the Python face ----------------------------------------------------------------------------------- */
static int32_t root_value(KSearch *S, int c, int32_t alpha, int32_t beta)
{
    if (c >= 0)
        return child(S, &S->root, S->to_move, c, alpha, beta);
    if (S->root.n == 0)
        return trick_start(S, S->to_move, alpha, beta);
    return node(S, &S->root, S->to_move, alpha, beta, -1);
}

static void begin(KSearch *S)
{
    S->busy = 1;
    S->abort = GO;
    S->cap = S->nodes + CHECK_EVERY;
    if (S->max_nodes >= 0 && S->cap > S->max_nodes)
        S->cap = S->max_nodes;
    release(S);
}

/* after a run: the GIL back, and the exception of a stopped or failed run */
static int finish(KSearch *S)
{
    hold(S);
    S->busy = 0;
    if (S->abort == PAST_NODES) {
        PyErr_Format(Stopped, "the search passed %lld nodes", S->max_nodes);
        return -1;
    }
    if (S->abort == PAST_TIME) {
        PyErr_SetString(Stopped, "the search ran out of time");
        return -1;
    }
    return S->abort == FAILED ? -1 : 0;
}

static int ready(KSearch *S)
{
    if (S->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the search is already running (in another thread)");
        return -1;
    }
    if (!S->placed) {
        PyErr_SetString(PyExc_ValueError, "the search has no position: call position() first");
        return -1;
    }
    return 0;
}

/* a card of the root (by the engine's id) the seat to move may play, in the search's order */
static int root_card(KSearch *S, PyObject *o)
{
    long c;
    if (k_int(o, 0, S->N - 1, &c, "card") < 0)
        return -1;
    int i = S->pos[c];
    if (!(legal(S, &S->root, S->to_move) >> i & 1)) {
        PyErr_Format(PyExc_ValueError, "card %ld is not legal for the seat to move", c);
        return -1;
    }
    return i;
}

static int window(PyObject *const *args, Py_ssize_t nargs, Py_ssize_t first, int32_t *alpha, int32_t *beta)
{
    long a, b;
    if (nargs != first + 2) {
        PyErr_SetString(PyExc_TypeError, "expected alpha and beta");
        return -1;
    }
    if (k_int(args[first], -INF, INF, &a, "alpha") < 0 || k_int(args[first + 1], -INF, INF, &b, "beta") < 0)
        return -1;
    *alpha = (int32_t)a;
    *beta = (int32_t)b;
    return 0;
}

static PyObject *KSearch_value(KSearch *S, PyObject *const *args, Py_ssize_t nargs)
{
    int32_t alpha, beta;
    if (ready(S) < 0 || window(args, nargs, 0, &alpha, &beta) < 0)
        return NULL;
    begin(S);
    int32_t v = root_value(S, -1, alpha, beta);
    return finish(S) < 0 ? NULL : PyLong_FromLong(v);
}

static PyObject *KSearch_after(KSearch *S, PyObject *const *args, Py_ssize_t nargs)
{
    int32_t alpha, beta;
    if (ready(S) < 0)
        return NULL;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "after(card, alpha, beta)");
        return NULL;
    }
    int c = root_card(S, args[0]);
    if (c < 0 || window(args, nargs, 1, &alpha, &beta) < 0)
        return NULL;
    begin(S);
    int32_t v = root_value(S, c, alpha, beta);
    return finish(S) < 0 ? NULL : PyLong_FromLong(v);
}

/* the exact value by null-window searches (MTD(f)) from a guess; -1 (abort set) when stopped */
static int mtdf_within(KSearch *S, int c, int32_t lo, int32_t hi, int32_t guess, int32_t *out)
{
    int32_t g = guess;
    while (lo < hi) {
        int32_t beta = g > lo + 1 ? g : lo + 1;
        g = root_value(S, c, beta - 1, beta);
        if (S->abort)
            return -1;
        if (g < beta)
            hi = g;
        else
            lo = g;
    }
    *out = g;
    return 0;
}

static int mtdf(KSearch *S, int c, int32_t guess, int32_t *out)
{
    return mtdf_within(S, c, -INF, INF, guess, out);
}

/* {card: value} of the k cards (in the search's order) */
static PyObject *by_card(const KSearch *S, const int *cards, const int32_t *vals, int k)
{
    PyObject *out = PyDict_New();
    for (int j = 0; out != NULL && j < k; j++) {
        PyObject *key = k_card(S->ord[cards[j]]), *val = PyLong_FromLong(vals[j]);
        if (key == NULL || val == NULL || PyDict_SetItem(out, key, val) < 0)
            Py_CLEAR(out);
        Py_XDECREF(key);
        Py_XDECREF(val);
    }
    return out;
}

/* the higher legal card of the seat to move that card c (of the legal cards m) is equivalent to, or -1 */
static int stands_for(const KSearch *S, int c, mask_t m)
{
    mask_t hand = S->hands[S->to_move], others = (S->live | S->root.tm) & ~hand;
    mask_t up = S->above[c] & (others | m);
    int d = up ? k_highest(up) : -1;
    return d >= 0 && !(others >> d & 1) && S->alike[c] >> d & 1 ? d : -1;
}

static PyObject *KSearch_values(KSearch *S, PyObject *const *args, Py_ssize_t nargs)
{
    long guess = 0;
    if (ready(S) < 0 || (nargs > 0 && k_int(args[0], -INF, INF, &guess, "guess") < 0))
        return NULL;
    mask_t m = legal(S, &S->root, S->to_move);
    int32_t vals[K_MAXCARDS], best;
    int cards[K_MAXCARDS], k = 0, mine = S->side[S->to_move];
    begin(S);
    /* the value of the position first: a card that keeps it is then found with one null window, and the
     * others start from the bound that window gives */
    if (mtdf(S, -1, (int32_t)guess, &best) < 0)
        m = 0;
    for (mask_t x = m; x; x &= x - 1) {
        int c = k_lowest(x);
        /* a card equivalent to a higher one already valued has its value */
        int d = stands_for(S, c, m);
        if (d >= 0) {
            for (int j = 0; j < k; j++)
                if (cards[j] == d)
                    vals[k] = vals[j];
        } else {
            int32_t t = mine ? root_value(S, c, best - 1, best) : root_value(S, c, best, best + 1);
            if (S->abort)
                break;
            if (mine ? t >= best : t <= best)
                vals[k] = best;
            else if ((mine ? mtdf_within(S, c, -INF, t, t, &vals[k]) : mtdf_within(S, c, t, INF, t, &vals[k])) < 0)
                break;
        }
        cards[k++] = c;
    }
    if (finish(S) < 0)
        return NULL;
    return by_card(S, cards, vals, k);
}

/* reached(xs): for each legal card of the seat to move, how many of the values xs (rising) the rest reaches
 * after it (value >= x), by a binary search of null-window searches: what a player whose payment steps at
 * a few values needs, far cheaper than exact values (whose windows all straddle the value) */
static PyObject *KSearch_reached(KSearch *S, PyObject *const *args, Py_ssize_t nargs)
{
    if (ready(S) < 0)
        return NULL;
    if (nargs != 1) {
        PyErr_SetString(PyExc_TypeError, "reached(xs): one sequence of values, rising");
        return NULL;
    }
    PyObject *seq = PySequence_Fast(args[0], "reached(xs): xs must be a sequence of values, rising");
    if (seq == NULL)
        return NULL;
    Py_ssize_t nx = PySequence_Fast_GET_SIZE(seq);
    int32_t xs[K_MAXCARDS + 1];
    int bad = nx < 1 || nx > K_MAXCARDS + 1;
    if (bad)
        PyErr_Format(PyExc_ValueError, "reached(xs): 1 to %d values, not %zd", K_MAXCARDS + 1, nx);
    for (Py_ssize_t i = 0; !bad && i < nx; i++) {
        long v;
        bad = k_int(PySequence_Fast_GET_ITEM(seq, i), -INF / 2, INF / 2, &v, "value") < 0;
        xs[i] = (int32_t)v;
        if (!bad && i && xs[i] <= xs[i - 1]) {
            PyErr_SetString(PyExc_ValueError, "reached(xs): the values must rise");
            bad = 1;
        }
    }
    Py_DECREF(seq);
    if (bad)
        return NULL;
    mask_t m = legal(S, &S->root, S->to_move);
    int cards[K_MAXCARDS], k = 0;
    int32_t got[K_MAXCARDS];
    begin(S);
    for (mask_t x = m; x && !S->abort; x &= x - 1) {
        int c = k_lowest(x);
        int d = stands_for(S, c, m);
        got[k] = -1;
        if (d >= 0)  /* as the higher card it stands for */
            for (int j = 0; j < k; j++)
                if (cards[j] == d)
                    got[k] = got[j];
        if (got[k] < 0) {
            int lo = 0, hi = (int)nx;  /* xs[lo - 1] is reached (lo 0: none known), xs[hi] is not */
            while (hi > lo && !S->abort) {
                int mid = (lo + hi - 1) / 2;
                if (root_value(S, c, xs[mid] - 1, xs[mid]) >= xs[mid])
                    lo = mid + 1;
                else
                    hi = mid;
            }
            got[k] = lo;
        }
        cards[k++] = c;
    }
    if (finish(S) < 0)
        return NULL;
    return by_card(S, cards, got, k);
}

/* play card c of the seat to move at the root for good: the trick goes on, or closes and the next begins;
 * the value it brought the side in `gain`; 1 when the deal is over, -1 when the early-end rule failed */
static int advance(KSearch *S, int c, int32_t *gain)
{
    Trick *tr = &S->root;
    int seat = S->to_move;
    mask_t bit = (mask_t)1 << c;
    S->hands[seat] ^= bit;
    S->live ^= bit;
    if (tr->n == 0) {
        tr->leader = seat;
        tr->suit = S->eff[c];
        tr->led = c;
        tr->best = KEY(S, tr->suit, c);
        tr->best_seat = seat;
    } else if (KEY(S, tr->suit, c) > tr->best) {
        tr->best = KEY(S, tr->suit, c);
        tr->best_seat = seat;
        if (S->high && S->eff[c] == S->eff[tr->led])
            tr->led = c;
    }
    tr->n++;
    tr->tm |= bit;
    *gain = 0;
    if (tr->n < S->tn) {
        S->to_move = S->nxt[seat];
        return 0;
    }
    int w = tr->best_seat;
    S->tricks[w]++;
    if (S->side[w])
        *gain = S->use_points ? S->aim * pts(S, tr->tm) : S->aim;
    memset(tr, 0, sizeof *tr);
    tr->leader = S->to_move = w;
    tr->led = tr->suit = tr->best_seat = -1;
    if (S->hands[w] == 0)
        return 1;
    return S->end != Py_None ? ended_early(S, k_popcount(S->hands[w])) : 0;
}

/* line(): the rest of the play from the root with every hand open, each card the first the search tries that
 * keeps its side's value (the root stays where it was) */
static PyObject *KSearch_line(KSearch *S, PyObject *unused)
{
    if (ready(S) < 0)
        return NULL;
    mask_t hands[K_MAXSEATS], live = S->live;
    int tricks[K_MAXSEATS], to_move = S->to_move, cards[K_MAXCARDS], k = 0;
    Trick root = S->root;
    memcpy(hands, S->hands, sizeof hands);
    memcpy(tricks, S->tricks, sizeof tricks);
    int32_t v, gain;
    begin(S);
    /* the value once; along the line it is the value after each card kept, less what the tricks brought */
    if (mtdf(S, -1, 0, &v) < 0)
        S->hands[S->to_move] = 0;  /* no line: the root is put back below */
    while (S->hands[S->to_move]) {
        int seat = S->to_move, mine = S->side[seat], pick = -1;
        uint8_t mv[K_MAXCARDS];
        int n = moves(S, &S->root, seat, legal(S, &S->root, seat), S->top, mv);
        for (int i = 0; i < n && pick < 0; i++) {
            int32_t t = mine ? child(S, &S->root, seat, mv[i], v - 1, v) : child(S, &S->root, seat, mv[i], v, v + 1);
            if (S->abort)
                break;
            if (mine ? t >= v : t <= v)
                pick = mv[i];
        }
        if (S->abort)
            break;
        if (pick < 0) {
            S->abort = FAILED;
            hold(S);
            PyErr_SetString(PyExc_AssertionError, "no card keeps the value");
            release(S);
            break;
        }
        cards[k++] = S->ord[pick];
        int over = advance(S, pick, &gain);
        if (over < 0) {
            S->abort = FAILED;
            break;
        }
        if (over)
            break;
        v -= gain;
    }
    memcpy(S->hands, hands, sizeof hands);
    memcpy(S->tricks, tricks, sizeof tricks);
    S->live = live;
    S->root = root;
    S->to_move = to_move;
    if (finish(S) < 0)
        return NULL;
    PyObject *out = PyList_New(k);
    for (int i = 0; out != NULL && i < k; i++) {
        PyObject *c = k_card(cards[i]);
        if (c == NULL)
            Py_CLEAR(out);
        else
            PyList_SET_ITEM(out, i, c);
    }
    return out;
}

static PyObject *KSearch_exact(KSearch *S, PyObject *const *args, Py_ssize_t nargs)
{
    long guess = 0;
    if (ready(S) < 0 || (nargs > 0 && k_int(args[0], -INF, INF, &guess, "guess") < 0))
        return NULL;
    int32_t v = 0;
    begin(S);
    mtdf(S, -1, (int32_t)guess, &v);
    return finish(S) < 0 ? NULL : PyLong_FromLong(v);
}

static PyObject *KSearch_root_cards(KSearch *S, PyObject *unused)
{
    if (ready(S) < 0)
        return NULL;
    mask_t m = outward(S, legal(S, &S->root, S->to_move));
    PyObject *out = PyList_New(0);
    for (; out != NULL && m; m &= m - 1) {
        PyObject *c = k_card(k_lowest(m));
        if (c == NULL || PyList_Append(out, c) < 0)
            Py_CLEAR(out);
        Py_XDECREF(c);
    }
    return out;
}

/* position(hands, tricks, trick, leader): the hands (masks by seat), the tricks won so far by seat, the
 * cards of the trick in hand (in order of play) and its leader */
static PyObject *KSearch_position(KSearch *S, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "position(hands, tricks, trick, leader)");
        return NULL;
    }
    if (S->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the search is already running (in another thread)");
        return NULL;
    }
    PyObject *f[3] = {PySequence_Fast(args[0], "hands must be a sequence"),
                      PySequence_Fast(args[1], "tricks must be a sequence"),
                      PySequence_Fast(args[2], "trick must be a sequence")};
    mask_t hands[K_MAXSEATS], seen = 0, tm = 0;
    int tricks[K_MAXSEATS], cards[K_MAXSEATS], nt = 0;
    long v, leader;
    int bad = f[0] == NULL || f[1] == NULL || f[2] == NULL;
    if (!bad && (PySequence_Fast_GET_SIZE(f[0]) != S->n || PySequence_Fast_GET_SIZE(f[1]) != S->n)) {
        PyErr_SetString(PyExc_ValueError, "position: a hand and a trick count for each seat");
        bad = 1;
    }
    for (int s = 0; !bad && s < S->n; s++) {
        mask_t h;
        bad = k_mask(PySequence_Fast_GET_ITEM(f[0], s), S->t->full, &h, "hand") < 0
              || k_int(PySequence_Fast_GET_ITEM(f[1], s), 0, 255, &v, "tricks won") < 0;
        if (!bad && (h & seen)) {
            PyErr_SetString(PyExc_ValueError, "position: a card is in two hands");
            bad = 1;
        }
        seen |= h;
        hands[s] = h;
        tricks[s] = (int)v;
    }
    if (!bad) {
        nt = (int)PySequence_Fast_GET_SIZE(f[2]);
        if (nt >= S->tn) {
            PyErr_SetString(PyExc_ValueError, "position: the trick in hand holds a card of every seat");
            bad = 1;
        }
    }
    for (int i = 0; !bad && i < nt; i++) {
        bad = k_int(PySequence_Fast_GET_ITEM(f[2], i), 0, S->N - 1, &v, "card of the trick") < 0;
        if (!bad && ((seen | tm) >> v & 1)) {
            PyErr_SetString(PyExc_ValueError, "position: a card of the trick is also held or played twice");
            bad = 1;
        }
        cards[i] = (int)v;
        tm |= (mask_t)1 << v;
    }
    bad = bad || k_int(args[3], 0, S->n - 1, &leader, "leader") < 0;
    for (int i = 0; i < 3; i++)
        Py_XDECREF(f[i]);
    if (bad)
        return NULL;
    /* the ring from the leader: distinct seats, each holding as many cards as its turn in the trick wants */
    int ring[K_MAXSEATS] = {0}, s = (int)leader;
    mask_t inring = 0;
    for (int i = 0; i < S->tn; i++) {
        if (inring >> s & 1) {
            PyErr_SetString(PyExc_ValueError, "position: the ring of play repeats a seat");
            return NULL;
        }
        inring |= (mask_t)1 << s;
        ring[i] = s;
        s = S->nxt[s];
    }
    int size = k_popcount(hands[ring[nt]]);
    for (int i = 0; i < S->tn; i++)
        if (k_popcount(hands[ring[i]]) != size - (i < nt) || size < 1) {
            PyErr_SetString(PyExc_ValueError, "position: the hands in play do not hold as many cards each");
            return NULL;
        }
    /* a seat out of the ring of play (one that left it, keeping its cards) plays none: they are out */
    S->live = 0;
    memset(S->owner, -1, sizeof S->owner);
    for (s = 0; s < S->n; s++) {
        S->hands[s] = inring >> s & 1 ? inward(S, hands[s]) : 0;
        S->live |= S->hands[s];
        S->tricks[s] = tricks[s];
        for (mask_t x = S->hands[s]; x; x &= x - 1)
            S->owner[k_lowest(x)] = (int8_t)s;
    }
    /* the trick in hand as the engine keeps it: led card (it follows the highest card of its suit under
     * `follow_answers: highest`), key row, best card and its seat */
    Trick *tr = &S->root;
    memset(tr, 0, sizeof *tr);
    tr->leader = (int)leader;
    tr->led = tr->suit = tr->best_seat = -1;
    for (int i = 0; i < nt; i++) {
        int c = S->pos[cards[i]];
        if (i == 0) {
            tr->suit = S->eff[c];
            tr->led = c;
            tr->best = KEY(S, tr->suit, c);
            tr->best_seat = ring[0];
        } else if (KEY(S, tr->suit, c) > tr->best) {
            tr->best = KEY(S, tr->suit, c);
            tr->best_seat = ring[i];
            if (S->high && S->eff[c] == S->eff[tr->led])
                tr->led = c;
        }
        tr->tm |= (mask_t)1 << c;
        tr->n++;
    }
    S->to_move = ring[nt];
    S->placed = 1;
    Py_RETURN_NONE;
}

static PyObject *KSearch_new_run(KSearch *S, PyObject *unused)
{
    S->gen++;
    Py_RETURN_NONE;
}

static PyObject *KSearch_limits(KSearch *S, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "limits(max_nodes or None, deadline or None)");
        return NULL;
    }
    long long mn = -1;
    double dl = -1.0;
    if (args[0] != Py_None) {
        mn = PyLong_AsLongLong(args[0]);
        if (mn == -1 && PyErr_Occurred())
            return NULL;
        if (mn < 0) {
            PyErr_SetString(PyExc_ValueError, "max_nodes must not be negative");
            return NULL;
        }
    }
    if (args[1] != Py_None) {
        dl = PyFloat_AsDouble(args[1]);
        if (dl == -1.0 && PyErr_Occurred())
            return NULL;
    }
    S->max_nodes = mn;
    S->deadline = dl;
    Py_RETURN_NONE;
}

/* -- construction -------------------------------------------------------------------------------------- */
static int by_order(const void *a, const void *b, const KTables *t)
{
    int x = *(const uint8_t *)a, y = *(const uint8_t *)b;
    if (t->eff[x] != t->eff[y])
        return t->eff[x] - t->eff[y];
    if (t->power[x] != t->power[y])
        return t->power[x] > t->power[y] ? -1 : 1;
    return x - y;
}

/* whether the rank keys treat suit s as its powers say in every key row: its cards all unable to win, or
 * ranked by power with no other card's key among theirs (so only their order within the suit matters) */
static int keys_by_power(const KSearch *S, int s)
{
    mask_t sm = S->suit[s];
    for (int r = 0; r < S->nsuits; r++) {
        int32_t lo = INF, hi = -INF, prev = INF, none = 1;
        for (mask_t x = sm; x; x &= x - 1) {
            int32_t k = KEY(S, r, k_lowest(x));
            if (k != -1)
                none = 0;
        }
        if (none)
            continue;
        for (mask_t x = sm; x; x &= x - 1) {
            int32_t k = KEY(S, r, k_lowest(x));
            if (k == -1 || k >= prev)
                return 0;
            prev = k;
            lo = k < lo ? k : lo;
            hi = k > hi ? k : hi;
        }
        for (int c = 0; c < S->N; c++)
            if (!(sm >> c & 1) && KEY(S, r, c) >= lo && KEY(S, r, c) <= hi)
                return 0;
    }
    return 1;
}

/* whether suit s (ordered by power) is keyed by its owners in rank order: 1 when its cards are all alike (no
 * classes needed), or when they fall into classes of mutually alike cards (numbered in rank order, `cls` and
 * `cls_bits` set) whose codes fit in the key's bits left (`*used` of 64); 0 (its cards keyed as they are)
 * when no two are alike, or the bits are used up. Alike cards of one class may stand for one
 * another wherever they are: the follow rules treat them alike but for rank, and their keys in every row
 * follow their order with no other card's among them (`keys_by_power`), so two positions whose live cards of
 * the suit have, in rank order, the same classes and owners are the same position but for the names of
 * those cards. */
static int classes(KSearch *S, int s, int *used)
{
    mask_t sm = S->suit[s];
    int n = 0, first[K_MAXCARDS];
    for (mask_t x = sm; x; x &= x - 1) {
        int c = k_lowest(x), k = 0;
        for (; k < n; k++)  /* alike to every card of a class already seen: of that class */
            if ((S->alike[c] >> first[k] & 1) && (S->alike[first[k]] >> c & 1))
                break;
        if (k == n)
            first[n++] = c;
        S->cls[c] = (uint8_t)k;
    }
    for (mask_t x = sm; x; x &= x - 1) {  /* a class of mutually alike cards, or none */
        int c = k_lowest(x);
        for (mask_t y = sm; y; y &= y - 1) {
            int d = k_lowest(y);
            if (d != c && S->cls[d] == S->cls[c] && !(S->alike[c] >> d & 1))
                return 0;
        }
    }
    if (n == 1)
        return 1;
    if (n == k_popcount(sm))  /* no two alike: its cards keyed as they are */
        return 0;
    int w = 1;
    while ((1 << w) < n)
        w++;
    if (*used + w * k_popcount(sm) > 64)
        return 0;
    *used += w * k_popcount(sm);
    S->cls_bits[s] = w;
    return 1;
}

static int setup(KSearch *S, PyObject *nxt, PyObject *side, PyObject *points)
{
    const KTables *t = S->t;
    int N = S->N = t->ncards;
    S->nsuits = t->nsuits;
    long v;
    if (PySequence_Fast_GET_SIZE(nxt) != S->n || PySequence_Fast_GET_SIZE(side) != S->n) {
        PyErr_SetString(PyExc_ValueError, "Search: a next seat and a side for each seat");
        return -1;
    }
    for (int s = 0; s < S->n; s++) {
        if (k_int(PySequence_Fast_GET_ITEM(nxt, s), 0, S->n - 1, &v, "next seat") < 0)
            return -1;
        S->nxt[s] = (int)v;
        int b = PyObject_IsTrue(PySequence_Fast_GET_ITEM(side, s));
        if (b < 0)
            return -1;
        S->side[s] = b;
    }
    /* the search's order */
    for (int c = 0; c < N; c++)
        S->ord[c] = (uint8_t)c;
    for (int i = 1; i < N; i++)  /* insertion sort: a deck is small */
        for (int j = i; j > 0 && by_order(&S->ord[j - 1], &S->ord[j], t) > 0; j--) {
            uint8_t x = S->ord[j];
            S->ord[j] = S->ord[j - 1];
            S->ord[j - 1] = x;
        }
    for (int i = 0; i < N; i++)
        S->pos[S->ord[i]] = (uint8_t)i;
    for (int i = 0; i < N; i++) {
        int c = S->ord[i];
        S->eff[i] = t->eff[c];
        S->power[i] = t->power[c];
        S->suit[t->eff[c]] |= (mask_t)1 << i;
    }
    S->key = PyMem_Calloc((size_t)(S->nsuits * N), sizeof(int32_t));
    S->bind = PyMem_Calloc((size_t)t->row_off[N] + 1, sizeof(mask_t));
    S->must = PyMem_Calloc((size_t)t->row_off[N] + 1, sizeof(mask_t));
    if (S->key == NULL || S->bind == NULL || S->must == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (int s = 0; s < S->nsuits; s++)
        for (int i = 0; i < N; i++)
            S->key[s * N + i] = t->key[s * N + S->ord[i]];
    int at = 0;
    for (int i = 0; i < N; i++) {
        int c = S->ord[i];
        S->row_off[i] = (uint16_t)at;
        for (int j = t->row_off[c]; j < t->row_off[c + 1]; j++, at++) {
            S->bind[at] = inward(S, t->bind[j]);
            S->must[at] = inward(S, t->must[j]);
        }
    }
    S->row_off[N] = (uint16_t)at;
    /* by power rising (ties by the search's order) */
    for (int i = 0; i < N; i++)
        S->pord[i] = (uint8_t)i;
    for (int i = 1; i < N; i++)
        for (int j = i; j > 0 && (S->power[S->pord[j - 1]] > S->power[S->pord[j]]
                                  || (S->power[S->pord[j - 1]] == S->power[S->pord[j]] && S->pord[j - 1] < S->pord[j]));
             j--) {
            uint8_t x = S->pord[j];
            S->pord[j] = S->pord[j - 1];
            S->pord[j - 1] = x;
        }
    for (int i = 0; i < N; i++)
        S->prank[S->pord[i]] = (uint8_t)i;
    /* card points, when they are counted */
    if (points != Py_None) {
        PyObject *p = PySequence_Fast(points, "points must be a sequence");
        if (p == NULL)
            return -1;
        int bad = PySequence_Fast_GET_SIZE(p) != N;
        if (bad)
            PyErr_SetString(PyExc_ValueError, "Search: a card point value for each card");
        for (int c = 0; !bad && c < N; c++) {
            bad = k_int(PySequence_Fast_GET_ITEM(p, c), -(1L << 20), 1L << 20, &v, "card points") < 0;
            S->points[S->pos[c]] = (int32_t)v;
        }
        Py_DECREF(p);
        if (bad)
            return -1;
        S->use_points = 1;
    }
    for (int i = 0; i < N; i++) {
        int c = S->ord[i];
        S->above[i] = S->suit[S->eff[i]] & (((mask_t)1 << i) - 1);
        mask_t a = inward(S, t->alike[c]);
        if (S->use_points)
            for (mask_t x = a; x; x &= x - 1)
                if (S->points[k_lowest(x)] != S->points[i])
                    a &= ~((mask_t)1 << k_lowest(x));
        S->alike[i] = a;
    }
    int seq_bits = 0;
    for (int s = 0; s < S->nsuits; s++) {
        mask_t sm = S->suit[s];
        if (!sm)
            continue;
        if (keys_by_power(S, s))
            S->ordered |= (uint64_t)1 << s;
        else {  /* its order is not its powers': no card of it stands for another */
            for (mask_t x = sm; x; x &= x - 1)
                S->alike[k_lowest(x)] = 0;
            continue;
        }
        if (k_popcount(sm) > 1 && classes(S, s, &seq_bits)) {
            S->alike_suits |= sm;
            S->alike_list[S->nalike++] = s;
        }
    }
    for (int s = 0; s < S->nsuits; s++) {
        mask_t sm = S->suit[s];
        int above = sm && (S->ordered >> s & 1);
        for (int r = 0; above && r < S->nsuits; r++) {
            int32_t low = INF, high = -INF;
            for (int c = 0; c < N; c++) {
                int32_t v = KEY(S, r, c);
                if (sm >> c & 1)
                    low = v < low ? v : low;
                else
                    high = v > high ? v : high;
            }
            above = low > high;
        }
        if (above)
            S->boss = sm;
    }
    /* a suit is strict when, for each of its cards led, the first row binds a hand holding any card of the suit
     * to the suit (and to nothing less) */
    for (int s = 0; s < S->nsuits; s++) {
        mask_t sm = S->suit[s];
        int ok = sm != 0;
        for (mask_t x = sm; ok && x; x &= x - 1) {
            int c = k_lowest(x), i = S->row_off[c];
            ok = i < S->row_off[c + 1] && S->bind[i] == sm && S->must[i] == sm;
        }
        if (ok)
            S->strict |= (uint64_t)1 << s;
    }
    /* trumps are plain when the cards that can win a trick led in another suit all belong to one suit and beat
     * every card of that other suit */
    S->plain = 1;
    int tsuit = -1;
    for (int c = 0; c < N && S->plain; c++)
        for (int r = 0; r < S->nsuits && S->plain; r++) {
            if (r == S->eff[c] || !S->suit[r] || KEY(S, r, c) < 0)
                continue;
            for (mask_t x = S->suit[r]; x && S->plain; x &= x - 1)
                S->plain = KEY(S, r, c) > KEY(S, r, k_lowest(x));
            if (tsuit >= 0 && tsuit != S->eff[c])
                S->plain = 0;
            tsuit = S->eff[c];
            S->trumps |= (mask_t)1 << c;
        }
    if (!S->plain)
        S->trumps = 0;
    /* tricks that must fall bound the value where nothing ends the deal early; tricks the leader can take,
     * where the side wants tricks */
    S->counted = !S->use_points && S->end == Py_None;
    S->sure = S->counted && S->aim > 0;
    return 0;
}

static PyObject *KSearch_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    PyObject *tables, *nxt, *side, *points = Py_None, *end = Py_None;
    int tn, high, aim, tt_bits = 18;
    static char *names[] = {"tables", "nxt", "tn", "high", "side", "aim", "points", "end", "tt_bits", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O!OipOi|OOi:Search", names, &KTables_Type, &tables, &nxt, &tn,
                                     &high, &side, &aim, &points, &end, &tt_bits))
        return NULL;
    if (aim != 1 && aim != -1) {
        PyErr_SetString(PyExc_ValueError, "Search: aim must be 1 or -1");
        return NULL;
    }
    if (tt_bits < TT_FIRST || tt_bits > 24) {
        PyErr_Format(PyExc_ValueError, "Search: tt_bits from %d to 24", TT_FIRST);
        return NULL;
    }
    if (end != Py_None && !PyCallable_Check(end)) {
        PyErr_SetString(PyExc_TypeError, "Search: end must be None or callable");
        return NULL;
    }
    KSearch *S = (KSearch *)type->tp_alloc(type, 0);
    if (S == NULL)
        return NULL;
    Py_INCREF(tables);
    S->t = (KTables *)tables;
    Py_INCREF(end);
    S->end = end;
    S->aim = aim;
    S->high = high;
    S->max_nodes = -1;
    S->deadline = -1.0;
    S->gen = 1;
    PyObject *time = PyImport_ImportModule("time");
    S->clock = time ? PyObject_GetAttrString(time, "perf_counter") : NULL;
    Py_XDECREF(time);
    PyObject *fn = PySequence_Fast(nxt, "nxt must be a sequence"), *fs = PySequence_Fast(side, "side must be a sequence");
    int ok = S->clock != NULL && fn != NULL && fs != NULL;
    if (ok) {
        S->n = (int)PySequence_Fast_GET_SIZE(fn);
        if (S->n < 1 || S->n > K_MAXSEATS || tn < 1 || tn > S->n) {
            PyErr_Format(PyExc_ValueError, "Search: 1 to %d seats, 1 to all of them in a trick", K_MAXSEATS);
            ok = 0;
        }
        S->tn = tn;
    }
    ok = ok && setup(S, fn, fs, points) == 0;
    Py_XDECREF(fn);
    Py_XDECREF(fs);
    if (ok) {
        S->tt_most = tt_bits;
        if (tt_alloc(S, TT_FIRST) < 0) {
            PyErr_NoMemory();
            ok = 0;
        }
    }
    if (!ok) {
        Py_DECREF(S);
        return NULL;
    }
    return (PyObject *)S;
}

static void KSearch_dealloc(KSearch *S)
{
    Py_XDECREF(S->t);
    Py_XDECREF(S->end);
    Py_XDECREF(S->clock);
    PyMem_Free(S->key);
    PyMem_Free(S->bind);
    PyMem_Free(S->must);
    PyMem_Free(S->tt);
    PyMem_Free(S->tags);
    PyMem_Free(S->ages);
    PyMem_Free(S->end_keys);
    PyMem_Free(S->end_vals);
    Py_TYPE(S)->tp_free((PyObject *)S);
}

static PyObject *KSearch_get_nodes(KSearch *S, void *closure) { return PyLong_FromLongLong(S->nodes); }

static int KSearch_set_nodes(KSearch *S, PyObject *v, void *closure)
{
    long long n = v ? PyLong_AsLongLong(v) : -1;
    if (n == -1 && PyErr_Occurred())
        return -1;
    if (n < 0) {
        PyErr_SetString(PyExc_ValueError, "nodes must not be negative");
        return -1;
    }
    S->nodes = n;
    return 0;
}

static PyObject *KSearch_get_alike(KSearch *S, void *closure)
{
    return PyLong_FromUnsignedLongLong(outward(S, S->alike_suits));
}

static PyMethodDef KSearch_methods[] = {
    {"position", (PyCFunction)(void (*)(void))KSearch_position, METH_FASTCALL,
     "position(hands, tricks, trick, leader): the position to search from"},
    {"value", (PyCFunction)(void (*)(void))KSearch_value, METH_FASTCALL,
     "value(alpha, beta): the side's value of the rest (aim applied), fail-soft within the window"},
    {"after", (PyCFunction)(void (*)(void))KSearch_after, METH_FASTCALL,
     "after(card, alpha, beta): the value of the rest once the seat to move plays card"},
    {"exact", (PyCFunction)(void (*)(void))KSearch_exact, METH_FASTCALL,
     "exact(guess=0): the exact value of the rest, by null-window searches"},
    {"values", (PyCFunction)(void (*)(void))KSearch_values, METH_FASTCALL,
     "values(guess=0): the exact value of the rest after each legal card of the seat to move, by card (the "
     "value of the position searched first, from the guess)"},
    {"reached", (PyCFunction)(void (*)(void))KSearch_reached, METH_FASTCALL,
     "reached(xs): for each legal card of the seat to move, how many of the values xs (rising) the rest reaches "
     "after it"},
    {"line", (PyCFunction)KSearch_line, METH_NOARGS,
     "line(): the rest of the play with every hand open, each card one that keeps its side's value"},
    {"root_cards", (PyCFunction)KSearch_root_cards, METH_NOARGS,
     "root_cards(): the legal cards of the seat to move, lowest first"},
    {"limits", (PyCFunction)(void (*)(void))KSearch_limits, METH_FASTCALL,
     "limits(max_nodes, deadline): stop past max_nodes nodes or past the deadline (time.perf_counter); None: none"},
    {"new_run", (PyCFunction)KSearch_new_run, METH_NOARGS,
     "new_run(): the entries found so far stay, but give way first to new ones"},
    {NULL}};

static PyGetSetDef KSearch_getset[] = {
    {"nodes", (getter)KSearch_get_nodes, (setter)KSearch_set_nodes, "nodes searched so far", NULL},
    {"alike_suits", (getter)KSearch_get_alike, NULL, "the cards of the suits keyed by their owners in rank order",
     NULL},
    {NULL}};

PyTypeObject KSearch_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ombre_rules.kernel._ckernel.Search",
    .tp_doc = "Search(tables, nxt, tn, high, side, aim, points=None, end=None, tt_bits=18): the "
              "double-dummy search of one side's tricks (or card points, with points) on the tables",
    .tp_basicsize = sizeof(KSearch),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = KSearch_new,
    .tp_dealloc = (destructor)KSearch_dealloc,
    .tp_methods = KSearch_methods,
    .tp_getset = KSearch_getset,
};

int k_init_search(PyObject *module)
{
    Stopped = PyErr_NewExceptionWithDoc("ombre_rules.kernel._ckernel.Stopped",
                                        "a search stopped by its node or time limit", NULL, NULL);
    if (Stopped == NULL)
        return -1;
    Py_INCREF(Stopped);
    return PyModule_AddObject(module, "Stopped", Stopped);
}
