/* Tables: a trump context's effective suits, powers and rank keys, and one follow list's rows, copied from
 * Python once and checked: every size, card id and mask is bounded before any array is written or read. */
#include "kernel.h"

static int seq_len(PyObject *fast, Py_ssize_t want, const char *what)
{
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (want >= 0 && n != want) {
        PyErr_Format(PyExc_ValueError, "%s: %zd items, expected %zd", what, n, want);
        return -1;
    }
    return 0;
}

/* whether the follow rules treat cards a and b alike but for their rank: the same obligations as a card
 * played under every other led card, and the same rows as a card led (the two cards themselves aside) */
static int alike_now(const KTables *t, int a, int b)
{
    mask_t ba = (mask_t)1 << a, bb = (mask_t)1 << b, both = ba | bb;
    if (t->eff[a] != t->eff[b])
        return 0;
    for (int led = 0; led < t->ncards; led++) {
        if (led == a || led == b)
            continue;
        for (int i = t->row_off[led]; i < t->row_off[led + 1]; i++)
            if (!(t->bind[i] & ba) != !(t->bind[i] & bb) || !(t->must[i] & ba) != !(t->must[i] & bb))
                return 0;
    }
    int na = t->row_off[a + 1] - t->row_off[a], nb = t->row_off[b + 1] - t->row_off[b];
    if (na != nb)
        return 0;
    for (int i = 0; i < na; i++) {
        int x = t->row_off[a] + i, y = t->row_off[b] + i;
        if ((t->bind[x] | both) != (t->bind[y] | both) || (t->must[x] | both) != (t->must[y] | both))
            return 0;
    }
    return 1;
}

static int fill(KTables *t, PyObject *eff, PyObject *key, PyObject *rows, PyObject *power)
{
    Py_ssize_t n = PySequence_Fast_GET_SIZE(eff);
    if (n < 1 || n > K_MAXCARDS) {
        PyErr_Format(PyExc_ValueError, "the kernel plays decks of 1 to %d cards, not %zd", K_MAXCARDS, n);
        return -1;
    }
    Py_ssize_t ns = PySequence_Fast_GET_SIZE(key);
    if (ns < 1 || ns > K_MAXSUITS) {
        PyErr_Format(PyExc_ValueError, "key rows: 1 to %d suits, not %zd", K_MAXSUITS, ns);
        return -1;
    }
    if (seq_len(rows, n, "follow rows") < 0 || seq_len(power, n, "powers") < 0)
        return -1;
    t->ncards = (int)n;
    t->nsuits = (int)ns;
    t->full = n == 64 ? ~(mask_t)0 : (((mask_t)1 << n) - 1);
    long v;
    for (int c = 0; c < n; c++) {
        if (k_int(PySequence_Fast_GET_ITEM(eff, c), 0, ns - 1, &v, "effective suit") < 0)
            return -1;
        t->eff[c] = (int8_t)v;
        if (k_int(PySequence_Fast_GET_ITEM(power, c), -(1L << 30), 1L << 30, &v, "power") < 0)
            return -1;
        t->power[c] = (int32_t)v;
    }
    t->key = PyMem_Calloc((size_t)(ns * n), sizeof(int32_t));
    if (t->key == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (int s = 0; s < ns; s++) {
        PyObject *row = PySequence_Fast(PySequence_Fast_GET_ITEM(key, s), "a key row must be a sequence");
        if (row == NULL)
            return -1;
        int bad = seq_len(row, n, "key row");
        for (int c = 0; !bad && c < n; c++) {
            bad = k_int(PySequence_Fast_GET_ITEM(row, c), -(1L << 30), 1L << 30, &v, "rank key") < 0;
            t->key[s * n + c] = (int32_t)v;
        }
        Py_DECREF(row);
        if (bad)
            return -1;
    }
    /* the follow pairs, counted first */
    Py_ssize_t total = 0;
    PyObject *fast_rows[K_MAXCARDS] = {NULL};
    int rc = -1;
    for (int c = 0; c < n; c++) {
        fast_rows[c] = PySequence_Fast(PySequence_Fast_GET_ITEM(rows, c), "a follow row must be a sequence");
        if (fast_rows[c] == NULL)
            goto done;
        total += PySequence_Fast_GET_SIZE(fast_rows[c]);
    }
    if (total > K_MAXPAIRS) {
        PyErr_Format(PyExc_ValueError, "follow rows: at most %d obligations in all, not %zd", K_MAXPAIRS, total);
        goto done;
    }
    t->bind = PyMem_Calloc((size_t)total + 1, sizeof(mask_t));
    t->must = PyMem_Calloc((size_t)total + 1, sizeof(mask_t));
    if (t->bind == NULL || t->must == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    int at = 0;
    for (int c = 0; c < n; c++) {
        t->row_off[c] = (uint16_t)at;
        Py_ssize_t k = PySequence_Fast_GET_SIZE(fast_rows[c]);
        for (Py_ssize_t i = 0; i < k; i++) {
            PyObject *pair = PySequence_Fast(PySequence_Fast_GET_ITEM(fast_rows[c], i),
                                             "a follow obligation must be a pair of masks");
            if (pair == NULL)
                goto done;
            int bad = seq_len(pair, 2, "follow obligation") < 0
                      || k_mask(PySequence_Fast_GET_ITEM(pair, 0), t->full, &t->bind[at], "follow bind mask") < 0
                      || k_mask(PySequence_Fast_GET_ITEM(pair, 1), t->full, &t->must[at], "follow must mask") < 0;
            Py_DECREF(pair);
            if (bad)
                goto done;
            at++;
        }
    }
    t->row_off[n] = (uint16_t)at;
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++)
            if (alike_now(t, a, b)) {
                t->alike[a] |= (mask_t)1 << b;
                t->alike[b] |= (mask_t)1 << a;
            }
    rc = 0;
done:
    for (int c = 0; c < n; c++)
        Py_XDECREF(fast_rows[c]);
    return rc;
}

static PyObject *KTables_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    PyObject *eff, *key, *rows, *power;
    static char *names[] = {"eff", "key", "rows", "power", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOO:Tables", names, &eff, &key, &rows, &power))
        return NULL;
    KTables *t = (KTables *)type->tp_alloc(type, 0);
    if (t == NULL)
        return NULL;
    PyObject *f[4] = {
        PySequence_Fast(eff, "eff must be a sequence"), PySequence_Fast(key, "key must be a sequence"),
        PySequence_Fast(rows, "rows must be a sequence"), PySequence_Fast(power, "power must be a sequence")};
    int ok = f[0] && f[1] && f[2] && f[3] && fill(t, f[0], f[1], f[2], f[3]) == 0;
    for (int i = 0; i < 4; i++)
        Py_XDECREF(f[i]);
    if (!ok) {
        Py_DECREF(t);
        return NULL;
    }
    return (PyObject *)t;
}

static void KTables_dealloc(KTables *t)
{
    PyMem_Free(t->key);
    PyMem_Free(t->bind);
    PyMem_Free(t->must);
    Py_TYPE(t)->tp_free((PyObject *)t);
}

static PyObject *KTables_alike(KTables *t, PyObject *arg)
{
    long c;
    if (k_int(arg, 0, t->ncards - 1, &c, "card") < 0)
        return NULL;
    return PyLong_FromUnsignedLongLong(t->alike[c]);
}

static PyObject *KTables_cards(KTables *t, void *closure)
{
    return PyLong_FromLong(t->ncards);
}

static PyMethodDef KTables_methods[] = {
    {"alike", (PyCFunction)KTables_alike, METH_O,
     "alike(card): the mask of the cards the follow rules treat as this one but for rank (same suit)"},
    {NULL}};

static PyGetSetDef KTables_getset[] = {
    {"cards", (getter)KTables_cards, NULL, "the deck's size", NULL},
    {NULL}};

PyTypeObject KTables_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ombre_rules.kernel._ckernel.Tables",
    .tp_doc = "Tables(eff, key, rows, power): a trump context's suits, rank keys and powers and one follow list's "
              "rows (per led card, (bind, must) mask pairs), checked and copied",
    .tp_basicsize = sizeof(KTables),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = KTables_new,
    .tp_dealloc = (destructor)KTables_dealloc,
    .tp_methods = KTables_methods,
    .tp_getset = KTables_getset,
};
