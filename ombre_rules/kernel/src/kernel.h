/* The play kernel of ombre_rules: the card play of any variant on the tables its ruleset compiles (effective
 * suits, rank keys by led suit, the follow rows), with hands as 64-bit masks. It knows mechanics, never games:
 * every table comes from Python as plain integers and is checked before use. */
#ifndef OMBRE_KERNEL_H
#define OMBRE_KERNEL_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#define K_MAXCARDS 64  /* a deck the kernel plays: at most 64 cards (one machine word a hand) */
#define K_MAXSEATS 8   /* seats at the table */
#define K_MAXSUITS 64  /* effective suits (the deck's suits) */
#define K_MAXPAIRS 4096 /* follow obligations over all led cards */

typedef uint64_t mask_t;

/* Tables: one trump context and one follow list, in the engine's card ids. */
typedef struct {
    PyObject_HEAD
    int ncards, nsuits;
    mask_t full;
    int8_t eff[K_MAXCARDS];          /* effective suit of each card */
    int32_t power[K_MAXCARDS];       /* rank power (higher wins within a suit; trumps above plain) */
    int32_t *key;                    /* key[s * ncards + c]: card c's strength in a trick led in suit s, -1: none */
    uint16_t row_off[K_MAXCARDS + 1];/* the follow pairs of led card c: [row_off[c], row_off[c + 1]) */
    mask_t *bind, *must;             /* a pair binds a hand holding a card of `bind`; it then plays from `must` */
    mask_t alike[K_MAXCARDS];        /* cards the follow rules treat as card c but for rank (same suit) */
} KTables;

extern PyTypeObject KTables_Type;
extern PyTypeObject KSearch_Type;
extern PyTypeObject KProgram_Type;  /* vm.c: the settlement machine */

/* What a settlement program reads of a deal the kernel plays whole (deals.c), in place of a Python state. */
typedef struct {
    int n;                            /* seats */
    int dealer, declarer, partner;    /* -1: none */
    int contract;                     /* the contract's number, -1: none */
    int committed, stopped, conceded;
    int has_ctx;                      /* trumps are known (the state's ctx is not None) */
    int trump;                        /* the trump suit's number, -1: none */
    int played;                       /* play began (the hands at play are set) */
    mask_t hands[K_MAXSEATS], play_hands[K_MAXSEATS], deal_hands[K_MAXSEATS], won[K_MAXSEATS];
    mask_t discards[K_MAXSEATS];
    long tricks[K_MAXSEATS];
    const int8_t *order;              /* the declarer's order of play (he first); norder seats */
    int norder;
    const int8_t *trump_order;        /* the trump context's cards from the top; ntrump cards */
    int ntrump;
    const int8_t *players;            /* the seats in play from forehand on; nplayers seats */
    int nplayers;
} KFacts;

/* run a program on a deal's facts: 0 done (the outcome's string number, or the condition's truth, in *out;
 * the payments and the pool changed), 1 declined (nothing changed), -1 a Python error */
int k_program_facts(PyObject *prog, const KFacts *f, int64_t *pay, int npay, int64_t *pool, int64_t *out);
int k_is_program(PyObject *o);
/* whether a program was made for a deck of ncards cards and nsuits suits and nk contracts, and ends as a
 * condition (truth) or a settlement */
int k_program_fits(PyObject *prog, int ncards, int nsuits, int nk, int truth);
extern PyTypeObject KDeals_Type;  /* deals.c: whole random deals */

/* the follow mask of `hand` when card `led` leads: the first pair that binds, else the whole hand */
static inline mask_t k_follow(const KTables *t, int led, mask_t hand)
{
    for (int i = t->row_off[led]; i < t->row_off[led + 1]; i++)
        if (hand & t->bind[i])
            return hand & t->must[i];
    return hand;
}

#if defined(_MSC_VER)
#include <intrin.h>
static inline int k_popcount(mask_t m) { return (int)__popcnt64(m); }
static inline int k_lowest(mask_t m) { unsigned long i; _BitScanForward64(&i, m); return (int)i; }
static inline int k_highest(mask_t m) { unsigned long i; _BitScanReverse64(&i, m); return (int)i; }
#else
/* counted without the POPCNT instruction a wheel for any x86-64 may not have (the builtin would be a call) */
static inline int k_popcount(mask_t m)
{
    m = m - ((m >> 1) & 0x5555555555555555ULL);
    m = (m & 0x3333333333333333ULL) + ((m >> 2) & 0x3333333333333333ULL);
    m = (m + (m >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((m * 0x0101010101010101ULL) >> 56);
}
static inline int k_lowest(mask_t m) { return __builtin_ctzll(m); }  /* m != 0 */
static inline int k_highest(mask_t m) { return 63 - __builtin_clzll(m); }  /* m != 0 */
#endif

/* checked 64-bit arithmetic: nonzero when the result does not fit (then *out is not to be used) */
#if defined(__GNUC__) || defined(__clang__)
#define k_add_overflow(a, b, out) __builtin_add_overflow((a), (b), (out))
#define k_sub_overflow(a, b, out) __builtin_sub_overflow((a), (b), (out))
#define k_mul_overflow(a, b, out) __builtin_mul_overflow((a), (b), (out))
#else
static inline int k_add_overflow(int64_t a, int64_t b, int64_t *out)
{
    if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b))
        return 1;
    *out = a + b;
    return 0;
}
static inline int k_sub_overflow(int64_t a, int64_t b, int64_t *out)
{
    if ((b < 0 && a > INT64_MAX + b) || (b > 0 && a < INT64_MIN + b))
        return 1;
    *out = a - b;
    return 0;
}
static inline int k_mul_overflow(int64_t a, int64_t b, int64_t *out)
{
    if (a != 0 && b != 0) {
        if ((a == -1 && b == INT64_MIN) || (b == -1 && a == INT64_MIN))
            return 1;
        if (a > 0 ? (b > 0 ? a > INT64_MAX / b : b < INT64_MIN / a) : (b > 0 ? a < INT64_MIN / b : a < INT64_MAX / b))
            return 1;
    }
    *out = a * b;
    return 0;
}
#endif

/* the k-th lowest card of m (k < popcount(m)) */
static inline int k_nth(mask_t m, int k)
{
    while (k--)
        m &= m - 1;
    return k_lowest(m);
}

/* argument helpers (module.c): a Python int as a card mask of the tables' deck, a seat, a small int */
int k_mask(PyObject *o, mask_t full, mask_t *out, const char *what);
int k_int(PyObject *o, long lo, long hi, long *out, const char *what);
PyObject *k_card(int c);  /* a new reference to the Python int c */
/* int(rand() * n), the place a random pick takes in a list of n (0 for none), refused outside [0, n) */
int k_rand_index(PyObject *rand, int n, int *out);
PyObject *k_tuple_i64(const int64_t *xs, Py_ssize_t n);  /* a new tuple of the n numbers (NULL: an error) */

PyObject *k_random_tricks(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
PyObject *k_random_discards(PyObject *self, PyObject *const *args, Py_ssize_t nargs);  /* exchange.c */
PyObject *k_shuffled(PyObject *self, PyObject *const *args, Py_ssize_t nargs);  /* shuffle.c */
int k_shuffle_into(int n, long long seed, int *order);  /* the deck order of n cards for a seed (n <= 1024) */
PyObject *k_shake128(PyObject *self, PyObject *const *args, Py_ssize_t nargs);

#endif
