/* Random tricks: the loop of `State._random_tricks` (engine/play.py) on the kernel's tables. Every card is
 * chosen as that loop chooses it (the k-th of the legal cards in rising order, k = int(rand() * count)), so
 * both give the same deal from the same random numbers; the Python lists it shares with the state (the
 * sorted hands, the history, the trick log) are changed as that loop changes them. */
#include "kernel.h"

/* remove card c, the i-th of the sorted list `hl`, from it */
static int take(PyObject *hl, Py_ssize_t i, int c)
{
    if (i >= PyList_GET_SIZE(hl) || PyLong_AsLong(PyList_GET_ITEM(hl, i)) != c) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "a sorted hand list does not match its hand's mask");
        return -1;
    }
    return PyList_SetSlice(hl, i, i + 1, NULL);
}

static int append_card(PyObject *list, int c)
{
    PyObject *o = k_card(c);
    if (o == NULL)
        return -1;
    int rc = PyList_Append(list, o);
    Py_DECREF(o);
    return rc;
}

enum { A_T, A_HANDS, A_HL, A_HISTORY, A_TRICKS, A_WON, A_LOG, A_NXT, A_TN, A_HIGH, A_SEAT, A_RAND, A_MAX, A_N };

/* random_tricks(tables, hands, hl, history, tricks, won, log, nxt, tn, high, seat, rand, max_tricks) -> seat:
 * from a lead by `seat`, play up to `max_tricks` whole tricks with random legal cards, stopping early once
 * the winner of a trick has no card left; returns the seat to lead next. `hands`, `hl`, `history`, `tricks`,
 * `won` and `log` are the state's lists, changed in place. */
PyObject *k_random_tricks(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != A_N) {
        PyErr_Format(PyExc_TypeError, "random_tricks takes %d arguments, not %zd", A_N, nargs);
        return NULL;
    }
    if (!PyObject_TypeCheck(args[A_T], &KTables_Type)) {
        PyErr_SetString(PyExc_TypeError, "random_tricks: the first argument must be Tables");
        return NULL;
    }
    const KTables *t = (const KTables *)args[A_T];
    PyObject *hands = args[A_HANDS], *hl = args[A_HL], *history = args[A_HISTORY], *tricks = args[A_TRICKS];
    PyObject *won = args[A_WON], *log = args[A_LOG], *rand = args[A_RAND];
    if (!PyList_CheckExact(hands) || !PyList_CheckExact(hl) || !PyList_CheckExact(history)
            || !PyList_CheckExact(tricks) || !PyList_CheckExact(won) || !PyList_CheckExact(log)) {
        PyErr_SetString(PyExc_TypeError, "random_tricks: hands, hl, history, tricks, won and log must be lists");
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(hands);
    if (n < 1 || n > K_MAXSEATS || PyList_GET_SIZE(hl) != n || PyList_GET_SIZE(tricks) != n
            || PyList_GET_SIZE(won) != n) {
        PyErr_Format(PyExc_ValueError, "random_tricks: 1 to %d seats, with a hand, a list, a count and a pile each",
                     K_MAXSEATS);
        return NULL;
    }
    PyObject *nxt = PySequence_Fast(args[A_NXT], "nxt must be a sequence");
    if (nxt == NULL)
        return NULL;
    int nx[K_MAXSEATS];
    long v;
    int bad = PySequence_Fast_GET_SIZE(nxt) != n;
    if (bad)
        PyErr_SetString(PyExc_ValueError, "random_tricks: nxt needs a seat for each seat");
    for (Py_ssize_t s = 0; !bad && s < n; s++) {
        bad = k_int(PySequence_Fast_GET_ITEM(nxt, s), 0, n - 1, &v, "next seat") < 0;
        nx[s] = (int)v;
    }
    Py_DECREF(nxt);
    if (bad)
        return NULL;
    long tn, seat, max_tricks;
    if (k_int(args[A_TN], 1, n, &tn, "seats in a trick") < 0 || k_int(args[A_SEAT], 0, n - 1, &seat, "seat") < 0
            || k_int(args[A_MAX], 1, LONG_MAX, &max_tricks, "tricks to play") < 0)
        return NULL;
    int high = PyObject_IsTrue(args[A_HIGH]);
    if (high < 0)
        return NULL;
    if (!PyCallable_Check(rand)) {
        PyErr_SetString(PyExc_TypeError, "random_tricks: rand must be callable");
        return NULL;
    }
    mask_t h[K_MAXSEATS], w[K_MAXSEATS];
    long tr[K_MAXSEATS];
    for (Py_ssize_t s = 0; s < n; s++) {
        PyObject *lst = PyList_GET_ITEM(hl, s);
        if (k_mask(PyList_GET_ITEM(hands, s), t->full, &h[s], "hand") < 0
                || k_mask(PyList_GET_ITEM(won, s), t->full, &w[s], "pile won") < 0
                || k_int(PyList_GET_ITEM(tricks, s), 0, LONG_MAX - 1, &tr[s], "tricks won") < 0)
            return NULL;
        if (!PyList_CheckExact(lst) || PyList_GET_SIZE(lst) != k_popcount(h[s])) {
            PyErr_SetString(PyExc_ValueError, "random_tricks: each seat's sorted list must hold its hand's cards");
            return NULL;
        }
    }
    const int nc = t->ncards;
    const int32_t *key = t->key;
    int cards[K_MAXSEATS];
    int rc = 0;
    for (long played = 0; played < max_tricks;) {
        int leader = (int)seat, i, k;
        mask_t hand = h[seat];
        if (hand == 0) {
            PyErr_SetString(PyExc_ValueError, "random_tricks: the seat to lead holds no card");
            rc = -1;
            break;
        }
        if (k_rand_index(rand, k_popcount(hand), &i) < 0) {
            rc = -1;
            break;
        }
        int a = k_nth(hand, i);
        if (take(PyList_GET_ITEM(hl, seat), i, a) < 0 || append_card(history, a) < 0) {
            rc = -1;
            break;
        }
        mask_t tm = (mask_t)1 << a;
        h[seat] = hand ^ tm;
        const int32_t *row = key + t->eff[a] * nc;
        int32_t best = row[a];
        int best_seat = leader, led = a;
        cards[0] = a;
        for (k = 1; k < tn; k++) {
            seat = nx[seat];
            hand = h[seat];
            mask_t m = k_follow(t, led, hand);
            if (m == 0) {
                PyErr_SetString(PyExc_ValueError, "random_tricks: a seat has no legal card");
                rc = -1;
                break;
            }
            if (k_rand_index(rand, k_popcount(m), &i) < 0) {
                rc = -1;
                break;
            }
            int c = k_nth(m, i);
            mask_t bit = (mask_t)1 << c;
            if (take(PyList_GET_ITEM(hl, seat), k_popcount(hand & (bit - 1)), c) < 0 || append_card(history, c) < 0) {
                rc = -1;
                break;
            }
            h[seat] = hand ^ bit;
            tm |= bit;
            if (row[c] > best) {
                best = row[c];
                best_seat = (int)seat;
                if (high && t->eff[c] == t->eff[led])
                    led = c;
            }
            cards[k] = c;
        }
        if (rc < 0)
            break;
        PyObject *ct = PyTuple_New(tn);
        if (ct == NULL) {
            rc = -1;
            break;
        }
        for (k = 0; k < tn; k++)
            PyTuple_SET_ITEM(ct, k, k_card(cards[k]));
        PyObject *entry = Py_BuildValue("(iNi)", leader, ct, best_seat);
        if (entry == NULL || PyList_Append(log, entry) < 0) {
            Py_XDECREF(entry);
            rc = -1;
            break;
        }
        Py_DECREF(entry);
        tr[best_seat]++;
        w[best_seat] |= tm;
        seat = best_seat;
        played++;
        if (h[seat] == 0)
            break;
    }
    /* the masks and counts written back as far as play went (an error keeps its exception) */
    PyObject *et, *ev, *tb;
    PyErr_Fetch(&et, &ev, &tb);
    for (Py_ssize_t s = 0; s < n; s++) {
        PyObject *o[3] = {PyLong_FromUnsignedLongLong(h[s]), PyLong_FromUnsignedLongLong(w[s]),
                          PyLong_FromLong(tr[s])};
        if (o[0] == NULL || o[1] == NULL || o[2] == NULL) {
            Py_XDECREF(o[0]);
            Py_XDECREF(o[1]);
            Py_XDECREF(o[2]);
            rc = -1;
            continue;
        }
        PyList_SetItem(hands, s, o[0]);
        PyList_SetItem(won, s, o[1]);
        PyList_SetItem(tricks, s, o[2]);
    }
    if (et != NULL)
        PyErr_Restore(et, ev, tb);
    if (rc < 0)
        return NULL;
    return PyLong_FromLong(seat);
}
