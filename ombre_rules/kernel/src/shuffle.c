/* The shuffle of a deal (`engine/deal.py` `shuffled`): the cards sorted by 32-bit little-endian keys read from
 * SHAKE-128 of the seed written in decimal, ties in deck order. SHAKE-128 is the Keccak-f[1600] sponge with a
 * rate of 168 bytes and the domain bits 1111 (FIPS 202); tests check it against hashlib byte for byte. */
#include "kernel.h"

#define SHAKE_RATE 168
#define MAX_SHUFFLE 1024  /* cards the kernel shuffles (a larger deck is shuffled in Python) */

static const uint64_t RC[24] = {
    0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808aULL, 0x8000000080008000ULL,
    0x000000000000808bULL, 0x0000000080000001ULL, 0x8000000080008081ULL, 0x8000000000008009ULL,
    0x000000000000008aULL, 0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000aULL,
    0x000000008000808bULL, 0x800000000000008bULL, 0x8000000000008089ULL, 0x8000000000008003ULL,
    0x8000000000008002ULL, 0x8000000000000080ULL, 0x000000000000800aULL, 0x800000008000000aULL,
    0x8000000080008081ULL, 0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL};
static const int ROT[24] = {1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 2, 14, 27, 41, 56, 8, 25, 43, 62, 18, 39, 61, 20, 44};
static const int LANE[24] = {10, 7, 11, 17, 18, 3, 5, 16, 8, 21, 24, 4, 15, 23, 19, 13, 12, 2, 20, 14, 22, 9, 6, 1};

static inline uint64_t rotl(uint64_t x, int s) { return (x << s) | (x >> (64 - s)); }

static void keccak_f(uint64_t a[25])
{
    for (int round = 0; round < 24; round++) {
        uint64_t c0 = a[0] ^ a[5] ^ a[10] ^ a[15] ^ a[20], c1 = a[1] ^ a[6] ^ a[11] ^ a[16] ^ a[21],
                 c2 = a[2] ^ a[7] ^ a[12] ^ a[17] ^ a[22], c3 = a[3] ^ a[8] ^ a[13] ^ a[18] ^ a[23],
                 c4 = a[4] ^ a[9] ^ a[14] ^ a[19] ^ a[24];
        uint64_t d[5] = {c4 ^ rotl(c1, 1), c0 ^ rotl(c2, 1), c1 ^ rotl(c3, 1), c2 ^ rotl(c4, 1), c3 ^ rotl(c0, 1)};
        for (int j = 0; j < 25; j += 5) {
            a[j] ^= d[0];
            a[j + 1] ^= d[1];
            a[j + 2] ^= d[2];
            a[j + 3] ^= d[3];
            a[j + 4] ^= d[4];
        }
        uint64_t t = a[1];
        for (int i = 0; i < 24; i++) {
            int j = LANE[i];
            uint64_t next = a[j];
            a[j] = rotl(t, ROT[i]);
            t = next;
        }
        for (int j = 0; j < 25; j += 5) {
            uint64_t b0 = a[j], b1 = a[j + 1], b2 = a[j + 2], b3 = a[j + 3], b4 = a[j + 4];
            a[j] = b0 ^ (~b1 & b2);
            a[j + 1] = b1 ^ (~b2 & b3);
            a[j + 2] = b2 ^ (~b3 & b4);
            a[j + 3] = b3 ^ (~b4 & b0);
            a[j + 4] = b4 ^ (~b0 & b1);
        }
        a[0] ^= RC[round];
    }
}

/* byte k of the state, lanes little-endian */
static inline uint8_t state_byte(const uint64_t a[25], int k) { return (uint8_t)(a[k >> 3] >> (8 * (k & 7))); }

/* SHAKE-128 of `msg` (at most one block: len < SHAKE_RATE), `outlen` bytes into `out` */
static void shake128(const uint8_t *msg, size_t len, uint8_t *out, size_t outlen)
{
    uint64_t a[25] = {0};
    for (size_t k = 0; k < len; k++)
        a[k >> 3] ^= (uint64_t)msg[k] << (8 * (k & 7));
    a[len >> 3] ^= (uint64_t)0x1F << (8 * (len & 7));
    a[(SHAKE_RATE - 1) >> 3] ^= (uint64_t)0x80 << (8 * ((SHAKE_RATE - 1) & 7));
    for (size_t done = 0; done < outlen;) {
        keccak_f(a);
        for (int k = 0; k < SHAKE_RATE && done < outlen; k++)
            out[done++] = state_byte(a, k);
    }
}

/* shake128(data, size) -> bytes: SHAKE-128 of a short message (under 168 bytes), for the tests */
PyObject *k_shake128(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    Py_buffer buf;
    long size;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "shake128(data, size)");
        return NULL;
    }
    if (k_int(args[1], 0, 1 << 20, &size, "size") < 0 || PyObject_GetBuffer(args[0], &buf, PyBUF_SIMPLE) < 0)
        return NULL;
    if (buf.len >= SHAKE_RATE) {
        PyBuffer_Release(&buf);
        PyErr_SetString(PyExc_ValueError, "data: fewer than 168 bytes");
        return NULL;
    }
    PyObject *out = PyBytes_FromStringAndSize(NULL, size);
    if (out != NULL)
        shake128(buf.buf, (size_t)buf.len, (uint8_t *)PyBytes_AS_STRING(out), (size_t)size);
    PyBuffer_Release(&buf);
    return out;
}

/* the deck order of n cards (at most MAX_SHUFFLE) for a seed */
int k_shuffle_into(int n, long long seed, int *order)
{
    char key[32];
    int len = snprintf(key, sizeof key, "%lld", seed);
    uint8_t bytes[4 * MAX_SHUFFLE];
    uint32_t keys[MAX_SHUFFLE];
    if (n < 0 || n > MAX_SHUFFLE)
        return -1;
    shake128((const uint8_t *)key, (size_t)len, bytes, (size_t)(4 * n));
    for (int c = 0; c < n; c++) {
        keys[c] = (uint32_t)bytes[4 * c] | (uint32_t)bytes[4 * c + 1] << 8 | (uint32_t)bytes[4 * c + 2] << 16
                  | (uint32_t)bytes[4 * c + 3] << 24;
        int at = c;  /* insertion sort: stable, as Python's sort keeps equal keys in deck order */
        while (at > 0 && keys[order[at - 1]] > keys[c]) {
            order[at] = order[at - 1];
            at--;
        }
        order[at] = c;
    }
    return 0;
}

/* shuffled(n, seed) -> list: the deck order `engine/deal.py` `shuffled(n, seed)` gives, for a seed that fits
 * in 64 bits; None for another seed (Python shuffles it) */
PyObject *k_shuffled(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    long n;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "shuffled(n, seed)");
        return NULL;
    }
    if (k_int(args[0], 0, MAX_SHUFFLE, &n, "n") < 0)
        return NULL;
    if (!PyLong_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "seed must be an int");
        return NULL;
    }
    int overflow;
    long long seed = PyLong_AsLongLongAndOverflow(args[1], &overflow);
    if (seed == -1 && PyErr_Occurred())
        return NULL;
    if (overflow)
        Py_RETURN_NONE;
    int order[MAX_SHUFFLE];
    k_shuffle_into((int)n, seed, order);
    PyObject *out = PyList_New(n);
    if (out == NULL)
        return NULL;
    for (int k = 0; k < n; k++) {
        PyObject *c = k_card(order[k]);
        if (c == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, k, c);
    }
    return out;
}
