/* The module `ombre_rules.kernel._ckernel`: the Tables, Search and Program types, random_tricks, and the checks every
 * value from Python passes before the kernel uses it. */
#include "kernel.h"

int k_init_search(PyObject *module);

int k_mask(PyObject *o, mask_t full, mask_t *out, const char *what)
{
    if (!PyLong_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int, not %.100s", what, Py_TYPE(o)->tp_name);
        return -1;
    }
    unsigned long long v = PyLong_AsUnsignedLongLong(o);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s: not a mask of the deck's cards", what);
        return -1;
    }
    if (v & ~full) {
        PyErr_Format(PyExc_ValueError, "%s: a card beyond the deck", what);
        return -1;
    }
    *out = (mask_t)v;
    return 0;
}

int k_int(PyObject *o, long lo, long hi, long *out, const char *what)
{
    if (!PyLong_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int, not %.100s", what, Py_TYPE(o)->tp_name);
        return -1;
    }
    int overflow;
    long v = PyLong_AsLongAndOverflow(o, &overflow);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (overflow || v < lo || v > hi) {
        PyErr_Format(PyExc_ValueError, "%s must be from %ld to %ld", what, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

PyObject *k_card(int c)
{
    return PyLong_FromLong(c);
}

int k_rand_index(PyObject *rand, int n, int *out)
{
    PyObject *r = PyObject_CallNoArgs(rand);
    if (r == NULL)
        return -1;
    double x = PyFloat_AsDouble(r);
    Py_DECREF(r);
    if (x == -1.0 && PyErr_Occurred())
        return -1;
    double y = x * (double)n;
    if (!(y >= 0.0 && (y < (double)n || n == 0))) {
        PyErr_SetString(PyExc_ValueError, "rand() must give floats in [0, 1)");
        return -1;
    }
    *out = (int)y;
    return 0;
}

PyObject *k_tuple_i64(const int64_t *xs, Py_ssize_t n)
{
    PyObject *t = PyTuple_New(n);
    for (Py_ssize_t k = 0; t != NULL && k < n; k++) {
        PyObject *v = PyLong_FromLongLong(xs[k]);
        if (v == NULL)
            Py_CLEAR(t);
        else
            PyTuple_SET_ITEM(t, k, v);
    }
    return t;
}

static PyMethodDef k_methods[] = {
    {"random_tricks", (PyCFunction)(void (*)(void))k_random_tricks, METH_FASTCALL,
     "random_tricks(tables, hands, hl, history, tricks, won, log, nxt, tn, high, seat, rand, max_tricks) -> seat"},
    {"random_discards", (PyCFunction)(void (*)(void))k_random_discards, METH_FASTCALL,
     "random_discards(rand, cards, history, hands, discards, seat, k, lo, hi, cede, base) -> (k, drew)"},
    {"shuffled", (PyCFunction)(void (*)(void))k_shuffled, METH_FASTCALL,
     "shuffled(n, seed) -> the deck order engine/deal.py's shuffled gives (None for a seed beyond 64 bits)"},
    {"shake128", (PyCFunction)(void (*)(void))k_shake128, METH_FASTCALL,
     "shake128(data, size) -> SHAKE-128 of data (under 168 bytes), size bytes"},
    {NULL}};

static struct PyModuleDef k_module = {
    PyModuleDef_HEAD_INIT, "_ckernel", "The compiled play kernel of ombre_rules (see ombre_rules.kernel).", -1,
    k_methods};

PyMODINIT_FUNC PyInit__ckernel(void)
{
    if (PyType_Ready(&KTables_Type) < 0 || PyType_Ready(&KSearch_Type) < 0 || PyType_Ready(&KProgram_Type) < 0
            || PyType_Ready(&KDeals_Type) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&k_module);
    if (m == NULL)
        return NULL;
    Py_INCREF(&KTables_Type);
    Py_INCREF(&KSearch_Type);
    Py_INCREF(&KProgram_Type);
    Py_INCREF(&KDeals_Type);
    if (PyModule_AddObject(m, "Tables", (PyObject *)&KTables_Type) < 0
            || PyModule_AddObject(m, "Search", (PyObject *)&KSearch_Type) < 0
            || PyModule_AddObject(m, "Program", (PyObject *)&KProgram_Type) < 0
            || PyModule_AddObject(m, "Deals", (PyObject *)&KDeals_Type) < 0
            || PyModule_AddIntConstant(m, "MAX_CARDS", K_MAXCARDS) < 0
            || PyModule_AddIntConstant(m, "MAX_SEATS", K_MAXSEATS) < 0 || k_init_search(m) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
