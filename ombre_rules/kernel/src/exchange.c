/* Random discards: one exchanger's turn of `State._random_exchange` (engine/exchange.py), the cards he lays
 * away chosen as that loop chooses them (the i-th of his sorted list, or the draw or the cession after them,
 * i = int(rand() * count)), so both give the same deal from the same random numbers. The Python lists it
 * shares with the state (the sorted hand, the history, the hands, the discards) are changed as that loop
 * changes them. */
#include "kernel.h"

enum { X_RAND, X_CARDS, X_HISTORY, X_HANDS, X_DISCARDS, X_SEAT, X_K, X_LO, X_HI, X_CEDE, X_BASE, X_N };

/* random_discards(rand, cards, history, hands, discards, seat, k, lo, hi, cede, base) -> (k, drew): discard
 * while the random pick names a card; `k` discards made so far, from `lo` to `hi`; `cede` whether the seat
 * may still cede; `base` the first discard action. Returns the discards made in all, and whether the last
 * pick was the draw (else it was the cession, or nothing was open: the caller applies it as Python does). */
PyObject *k_random_discards(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != X_N) {
        PyErr_Format(PyExc_TypeError, "random_discards takes %d arguments, not %zd", X_N, nargs);
        return NULL;
    }
    PyObject *rand = args[X_RAND], *cards = args[X_CARDS], *history = args[X_HISTORY];
    PyObject *hands = args[X_HANDS], *discards = args[X_DISCARDS];
    if (!PyList_CheckExact(cards) || !PyList_CheckExact(history) || !PyList_CheckExact(hands)
            || !PyList_CheckExact(discards) || PyList_GET_SIZE(hands) != PyList_GET_SIZE(discards)) {
        PyErr_SetString(PyExc_TypeError, "random_discards: cards, history, hands and discards must be lists");
        return NULL;
    }
    long seat, k, lo, hi, base;
    Py_ssize_t n = PyList_GET_SIZE(hands);
    if (k_int(args[X_SEAT], 0, n - 1, &seat, "seat") < 0 || k_int(args[X_K], 0, K_MAXCARDS, &k, "discards") < 0
            || k_int(args[X_LO], 0, K_MAXCARDS, &lo, "least") < 0 || k_int(args[X_HI], 0, K_MAXCARDS, &hi, "most") < 0
            || k_int(args[X_BASE], 0, 1L << 30, &base, "base") < 0)
        return NULL;
    int cede = PyObject_IsTrue(args[X_CEDE]);
    if (cede < 0)
        return NULL;
    if (!PyCallable_Check(rand)) {
        PyErr_SetString(PyExc_TypeError, "random_discards: rand must be callable");
        return NULL;
    }
    mask_t hand, gone;
    if (k_mask(PyList_GET_ITEM(hands, seat), ~(mask_t)0, &hand, "hand") < 0
            || k_mask(PyList_GET_ITEM(discards, seat), ~(mask_t)0, &gone, "discards") < 0)
        return NULL;
    int drew = 0, rc = 0;
    for (;;) {
        Py_ssize_t held = k < hi ? PyList_GET_SIZE(cards) : 0;
        int draw = k >= lo;
        int i;
        if (k_rand_index(rand, (int)held + draw + cede, &i) < 0) {
            rc = -1;
            break;
        }
        if (i >= held) {
            drew = i == held && draw;
            break;
        }
        if (i >= PyList_GET_SIZE(cards)) {  /* rand() changed the list under the loop */
            PyErr_SetString(PyExc_ValueError, "random_discards: the hand's list changed while it was read");
            rc = -1;
            break;
        }
        long c;
        if (k_int(PyList_GET_ITEM(cards, i), 0, K_MAXCARDS - 1, &c, "a card of the hand") < 0) {
            rc = -1;
            break;
        }
        mask_t bit = (mask_t)1 << c;
        if (!(hand & bit)) {
            PyErr_SetString(PyExc_ValueError, "random_discards: the sorted list holds a card the hand does not");
            rc = -1;
            break;
        }
        PyObject *a = PyLong_FromLong(base + c);
        if (a == NULL || PyList_SetSlice(cards, i, i + 1, NULL) < 0 || PyList_Append(history, a) < 0) {
            Py_XDECREF(a);
            rc = -1;
            break;
        }
        Py_DECREF(a);
        hand ^= bit;
        gone |= bit;
        k++;
        cede = 0;
    }
    /* the masks written back as far as the turn went (an error keeps its exception) */
    PyObject *et, *ev, *tb;
    PyErr_Fetch(&et, &ev, &tb);
    PyObject *h = PyLong_FromUnsignedLongLong(hand), *d = PyLong_FromUnsignedLongLong(gone);
    if (h == NULL || d == NULL) {
        Py_XDECREF(h);
        Py_XDECREF(d);
        rc = -1;
    } else if (seat >= PyList_GET_SIZE(hands) || seat >= PyList_GET_SIZE(discards)) {
        Py_DECREF(h);  /* the lists shrank under the loop: nothing written back */
        Py_DECREF(d);
        if (et == NULL)
            PyErr_SetString(PyExc_ValueError, "random_discards: the hands changed while they were read");
        rc = -1;
    } else {
        PyList_SetItem(hands, seat, h);
        PyList_SetItem(discards, seat, d);
    }
    if (et != NULL)
        PyErr_Restore(et, ev, tb);
    if (rc < 0)
        return NULL;
    return Py_BuildValue("(lO)", k, drew ? Py_True : Py_False);
}
