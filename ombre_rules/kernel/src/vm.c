/* The settlement machine: a deal's end (its outcome, payments and pool) run from a small stack code that
 * `kernel/vm.py` translates from a settlement block's generated Python. It knows mechanics, never games: the
 * code, its constants and its names come from Python and are checked when a Program is made.
 *
 * Values are Python's as the generated code sees them: none, ints and bools, strings (by number in the
 * program's string table), cards, suits and contracts (by number in its object tables), lists (in an arena
 * of the run), the environment's functions, and opaque objects (tested for none only). Anything the machine
 * cannot do exactly as Python would (a type Python would refuse, a number beyond 64 bits, an unknown string
 * or object) declines the run: `run` gives None and changes nothing, and the caller runs the Python block,
 * which gives the same result or raises the same error it always did. */
#include "kernel.h"
#include <structmember.h>

enum { V_UNSET, V_NONE, V_INT, V_BOOL, V_STR, V_CARD, V_SUIT, V_CONTRACT, V_LIST, V_FUNC, V_OPAQUE, V_TUPLE };
/* a list or a tuple (a tuple read from Python: equal only to a tuple, as in Python) */
#define IS_SEQ(v) ((v).tag == V_LIST || (v).tag == V_TUPLE)

typedef struct {
    int32_t tag;
    int32_t len;   /* a list's length */
    int64_t i;     /* the number, string, object or function number; a list's place in the arena */
} Val;

/* the operations; the number of operands each takes is in OPERANDS */
enum {
    OP_CONST, OP_LOAD, OP_STORE, OP_POP, OP_POOL, OP_STATE, OP_STATE2, OP_ENV, OP_FUNC, OP_CALLF, OP_BI,
    OP_ATTR, OP_ADD, OP_SUB, OP_MUL, OP_NEG, OP_NOT, OP_CMP, OP_JUMP, OP_JF, OP_JF_KEEP, OP_JT_KEEP, OP_LIST,
    OP_ITER, OP_APPEND, OP_EMPTY, OP_SEATS, OP_PAY, OP_TO_POOL, OP_FROM_POOL, OP_PAY1, OP_RETURN, OP_SET, OP_TRUTH, OP_COUNT
};
static const int OPERANDS[OP_COUNT] = {1, 1, 1, 0, 0, 1, 2, 1, 1, 1, 2, 1, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1,
                                       4, 1, 1, 0, 0, 0, 0, 0, 0, 1, 0};
enum { C_EQ, C_NE, C_LT, C_LE, C_GT, C_GE, C_IN, C_NOTIN, C_IS, C_ISNOT, C_COUNT };
enum { B_MAX, B_MIN, B_SUM, B_COUNT, B_LEN, B_ANY, B_ALL, B_PREFIX_LEN, B_FIRST, B_GROUP_POINTS, B_ABS, B_REST,
       B_DIV, B_MOD, B_GI, B_PY, B_NUMBER };
/* the arguments each built-in takes: at least, at most */
static const int ARITY[B_NUMBER][2] = {{1, 64}, {1, 64}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {2, 2}, {1, 1},
                                       {3, 3}, {1, 1}, {1, 1}, {2, 2}, {2, 2}, {2, 2}, {1, 1}};
/* how a function of the environment is read: by a Python call, or straight from a list of the state by seat */
enum { F_PY, F_SEAT_INT, F_SEAT_CARDS };

/* what a name reads of a deal's facts (KFacts); ruleset/machine.py gives them by name */
enum { S_NONE, S_COMMITTED, S_STOPPED, S_CONCEDED, S_DECLARER, S_CONTRACT, S_CTX, S_DEALER, S_PARTNER,
       S_TRUMP_ORDER, S_DECLARER_OR_NONE, S_PARTNER_OR_NONE, S_TRUMP, S_DEFENDERS, S_PLAYERS,
       S_TRICKS = 20, S_HANDS, S_PLAY_HANDS, S_DEAL_HANDS, S_WON, S_DISCARDS, S_LAST };

#define VM_STACK 128
#define VM_ARENA 2048
#define VM_SLOTS 256
#define VM_SETS 64

typedef struct {
    PyObject_HEAD
    int32_t *code;
    int ncode, nslots, nconsts;
    Val *consts;
    PyObject *names;     /* tuple of str: attributes of the state and the environment, functions' names */
    PyObject *strings;   /* tuple of str, by number */
    PyObject *string_ids;/* dict str -> number */
    PyObject *objects;   /* tuple of three tuples: cards, suits, contracts, by number */
    PyObject *object_ids;/* dict id(object) -> tag * 2**32 + number */
    int32_t *base;       /* per contract: the number of the contract it compares equal to */
    int ncontracts, nattrs, ncards, nsuits;
    int returns, truths;  /* how many RETURN and TRUTH operations it has (a settlement, or a condition) */
    Val *attrs;          /* attrs[(k * 3 + kind) * width + number]: attribute k of a card, suit, contract */
    int width;
    int32_t *fkind;      /* per name: how a call of the environment's function of that name is made */
    int32_t *fattr;      /* ... and the state attribute it reads (a name's number) */
    int32_t *sfield;     /* per name: what it reads of a deal's facts as an attribute of the state (F_*), 0 none */
    int32_t *efield;     /* ... and as a value of the environment */
    PyObject *pyfuncs;   /* tuple of Python callables for B_PY (given the state) */
    PyObject *make_env;  /* callable(state) -> the environment */
} KProgram;

typedef struct {
    KProgram *p;
    const KFacts *facts;  /* a deal the kernel plays (then no state) */
    PyObject *state, *env;
    Val stack[VM_STACK];
    int sp;
    Val arena[VM_ARENA];
    int top;
    Val slots[VM_SLOTS];
    int64_t pay[K_MAXSEATS];
    int npay;
    int64_t pool;
    int declined;
    int nsets;
    int truth;  /* the program ended as a condition (its truth in the outcome) */
    int32_t set_at[VM_SETS];  /* the values `set:` gives the next deal, in order: which, and the value */
    Val set_val[VM_SETS];
} Run;

#define DECLINE(r) do { (r)->declined = 1; return -1; } while (0)

static int truth(Run *r, Val v)
{
    switch (v.tag) {
    case V_NONE: return 0;
    case V_INT: case V_BOOL: return v.i != 0;
    case V_STR: {
        PyObject *s = PyTuple_GET_ITEM(r->p->strings, v.i);
        return PyUnicode_GET_LENGTH(s) != 0;
    }
    case V_LIST: case V_TUPLE: return v.len != 0;
    case V_CARD: case V_SUIT: case V_CONTRACT: case V_FUNC: return 1;
    default: r->declined = 1; return -1;
    }
}

static int is_num(Val v) { return v.tag == V_INT || v.tag == V_BOOL; }

/* Python's a == b for the values the machine holds: 1, 0, or -1 (declined) */
static int equal(Run *r, Val a, Val b)
{
    if (is_num(a) && is_num(b))
        return a.i == b.i;
    if (a.tag == V_UNSET || b.tag == V_UNSET || a.tag == V_OPAQUE || b.tag == V_OPAQUE || a.tag == V_FUNC
            || b.tag == V_FUNC)
        DECLINE(r);
    if (a.tag != b.tag)
        return 0;
    switch (a.tag) {
    case V_NONE: return 1;
    case V_STR: case V_CARD: case V_SUIT: return a.i == b.i;
    case V_CONTRACT: return r->p->base[a.i] == r->p->base[b.i];
    case V_LIST: case V_TUPLE:
        if (a.len != b.len)
            return 0;
        for (int k = 0; k < a.len; k++) {
            int e = equal(r, r->arena[a.i + k], r->arena[b.i + k]);
            if (e != 1)
                return e;
        }
        return 1;
    }
    DECLINE(r);
}

static int push(Run *r, Val v)
{
    if (r->sp >= VM_STACK)
        DECLINE(r);
    r->stack[r->sp++] = v;
    return 0;
}

static Val num(int64_t i) { Val v = {V_INT, 0, i}; return v; }
static Val boolean(int b) { Val v = {V_BOOL, 0, b ? 1 : 0}; return v; }
static Val none(void) { Val v = {V_NONE, 0, 0}; return v; }

/* a new list of n items at the arena's top (the items to be filled in) */
static int new_list(Run *r, int n, Val *out)
{
    if (n < 0 || r->top + n > VM_ARENA)
        DECLINE(r);
    out->tag = V_LIST;
    out->len = n;
    out->i = r->top;
    r->top += n;
    return 0;
}

static int64_t floordiv(int64_t a, int64_t b)
{
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0)))
        q--;
    return q;
}

static int64_t floormod(int64_t a, int64_t b)
{
    int64_t m = a % b;
    if (m != 0 && ((m < 0) != (b < 0)))
        m += b;
    return m;
}

/* ---- values from and to Python ---------------------------------------------------------------------- */

static int from_py(Run *r, PyObject *o, Val *out, int depth)
{
    if (o == Py_None) { *out = none(); return 0; }
    if (PyBool_Check(o)) { *out = boolean(o == Py_True); return 0; }
    if (PyLong_CheckExact(o)) {
        int overflow;
        long long x = PyLong_AsLongLongAndOverflow(o, &overflow);
        if (overflow || (x == -1 && PyErr_Occurred())) {
            PyErr_Clear();
            DECLINE(r);
        }
        *out = num(x);
        return 0;
    }
    if (PyUnicode_CheckExact(o)) {
        PyObject *id = PyDict_GetItemWithError(r->p->string_ids, o);
        if (id == NULL) {
            PyErr_Clear();
            DECLINE(r);
        }
        out->tag = V_STR;
        out->len = 0;
        out->i = PyLong_AsLong(id);
        return 0;
    }
    if (PyList_CheckExact(o) || PyTuple_CheckExact(o)) {
        if (depth > 2)
            DECLINE(r);
        Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
        PyObject **items = PySequence_Fast_ITEMS(o);
        Val l;
        if (n > VM_ARENA || new_list(r, (int)n, &l) < 0)
            DECLINE(r);
        for (Py_ssize_t k = 0; k < n; k++)
            if (from_py(r, items[k], &r->arena[l.i + k], depth + 1) < 0)
                return -1;
        if (PyTuple_CheckExact(o))
            l.tag = V_TUPLE;
        *out = l;
        return 0;
    }
    PyObject *key = PyLong_FromVoidPtr(o);
    if (key == NULL) {
        PyErr_Clear();
        DECLINE(r);
    }
    PyObject *id = PyDict_GetItemWithError(r->p->object_ids, key);
    Py_DECREF(key);
    if (id == NULL) {
        if (PyErr_Occurred()) {
            PyErr_Clear();
            DECLINE(r);
        }
        out->tag = V_OPAQUE;
        out->len = 0;
        out->i = 0;
        return 0;
    }
    long long packed = PyLong_AsLongLong(id);
    out->tag = (int32_t)(packed >> 32);
    out->len = 0;
    out->i = packed & 0xffffffffLL;
    return 0;
}

static PyObject *to_py(Run *r, Val v)
{
    switch (v.tag) {
    case V_NONE: Py_RETURN_NONE;
    case V_INT: return PyLong_FromLongLong(v.i);
    case V_BOOL: return PyBool_FromLong((long)v.i);
    case V_STR: { PyObject *s = PyTuple_GET_ITEM(r->p->strings, v.i); Py_INCREF(s); return s; }
    case V_CARD: case V_SUIT: case V_CONTRACT: {
        PyObject *t = PyTuple_GET_ITEM(r->p->objects, v.tag - V_CARD);
        PyObject *o = PyTuple_GET_ITEM(t, v.i);
        Py_INCREF(o);
        return o;
    }
    case V_LIST: case V_TUPLE: {
        PyObject *l = v.tag == V_LIST ? PyList_New(v.len) : PyTuple_New(v.len);
        if (l == NULL)
            return NULL;
        for (int k = 0; k < v.len; k++) {
            PyObject *x = to_py(r, r->arena[v.i + k]);
            if (x == NULL) {
                Py_DECREF(l);
                return NULL;
            }
            if (v.tag == V_LIST)
                PyList_SET_ITEM(l, k, x);
            else
                PyTuple_SET_ITEM(l, k, x);
        }
        return l;
    }
    }
    r->declined = 1;
    PyErr_SetString(PyExc_ValueError, "declined");
    return NULL;
}

/* a Python result into a value; a Python error declines the run */
static int take_py(Run *r, PyObject *o, Val *out)
{
    if (o == NULL) {
        PyErr_Clear();
        DECLINE(r);
    }
    int rc = from_py(r, o, out, 0);
    Py_DECREF(o);
    return rc;
}

static PyObject *get_env(Run *r)
{
    if (r->env == NULL)
        r->env = PyObject_CallOneArg(r->p->make_env, r->state);
    return r->env;
}

/* ---- a deal's facts (a deal the kernel plays whole) ----------------------------------------------------- */

static int cards_of(Run *r, mask_t m, Val *out)
{
    if (r->p->ncards < 64 && (m >> r->p->ncards) != 0)
        DECLINE(r);  /* a card beyond the program's deck */
    if (new_list(r, k_popcount(m), out) < 0)
        return -1;
    for (int k = 0; m; m &= m - 1) {
        Val c = {V_CARD, 0, k_lowest(m)};
        r->arena[out->i + k++] = c;
    }
    return 0;
}

static int fact(Run *r, int code, Val *out)
{
    const KFacts *f = r->facts;
    switch (code) {
    case S_COMMITTED: *out = boolean(f->committed); return 0;
    case S_STOPPED: *out = boolean(f->stopped); return 0;
    case S_CONCEDED: *out = boolean(f->conceded); return 0;
    case S_DECLARER: *out = num(f->declarer); return 0;
    case S_PARTNER: *out = num(f->partner); return 0;
    case S_DEALER: *out = num(f->dealer); return 0;
    case S_DECLARER_OR_NONE: *out = f->declarer < 0 ? none() : num(f->declarer); return 0;
    case S_PARTNER_OR_NONE: *out = f->partner < 0 ? none() : num(f->partner); return 0;
    case S_CONTRACT:
        if (f->contract < 0) { *out = none(); return 0; }
        if (f->contract >= r->p->ncontracts) DECLINE(r);
        out->tag = V_CONTRACT; out->len = 0; out->i = f->contract;
        return 0;
    case S_CTX:
        out->tag = f->has_ctx ? V_OPAQUE : V_NONE; out->len = 0; out->i = 0;
        return 0;
    case S_TRUMP:
        if (f->trump < 0) { *out = none(); return 0; }
        if (f->trump >= r->p->nsuits) DECLINE(r);
        out->tag = V_SUIT; out->len = 0; out->i = f->trump;
        return 0;
    case S_TRUMP_ORDER: {
        int n = f->has_ctx ? f->ntrump : 0;
        if (new_list(r, n, out) < 0)
            return -1;
        for (int k = 0; k < n; k++) {
            Val c = {V_CARD, 0, f->trump_order[k]};
            if (c.i < 0 || c.i >= r->p->ncards) DECLINE(r);
            r->arena[out->i + k] = c;
        }
        return 0;
    }
    case S_PLAYERS:
        if (new_list(r, f->nplayers, out) < 0)
            return -1;
        for (int k = 0; k < f->nplayers; k++)
            r->arena[out->i + k] = num(f->players[k]);
        return 0;
    case S_DEFENDERS: {  /* everyone in play but the declarer and his partner (no fixed teams here) */
        int n = 0;
        if (f->declarer >= 0)
            for (int k = 1; k < f->norder; k++)
                n += f->order[k] != f->partner;
        if (new_list(r, n, out) < 0)
            return -1;
        for (int k = 1, j = 0; f->declarer >= 0 && k < f->norder; k++)
            if (f->order[k] != f->partner)
                r->arena[out->i + j++] = num(f->order[k]);
        return 0;
    }
    }
    DECLINE(r);
}

/* a list of the facts by seat (`code`), item `seat` (none: 0 or no cards) */
static int fact_by_seat(Run *r, int code, Val seat, Val *out)
{
    const KFacts *f = r->facts;
    int cards = code != S_TRICKS;
    if (seat.tag == V_NONE || (code == S_PLAY_HANDS && !f->played)) {
        if (cards)
            return new_list(r, 0, out);
        *out = num(0);
        return 0;
    }
    if (!is_num(seat))
        DECLINE(r);
    int64_t i = seat.i < 0 ? seat.i + f->n : seat.i;
    if (i < 0 || i >= f->n)
        DECLINE(r);
    switch (code) {
    case S_TRICKS: *out = num(f->tricks[i]); return 0;
    case S_HANDS: return cards_of(r, f->hands[i], out);
    case S_PLAY_HANDS: return cards_of(r, f->play_hands[i], out);
    case S_DEAL_HANDS: return cards_of(r, f->deal_hands[i], out);
    case S_WON: return cards_of(r, f->won[i], out);
    case S_DISCARDS: return cards_of(r, f->discards[i], out);
    }
    DECLINE(r);
}

/* ---- the environment's functions and the built-ins ---------------------------------------------------- */

/* item `seat` of a state list (Python's indexing, a negative seat from the end) */
static PyObject *seat_item(PyObject *seq, Val seat)
{
    if (!is_num(seat) || !(PyList_CheckExact(seq) || PyTuple_CheckExact(seq)))
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    int64_t i = seat.i < 0 ? seat.i + n : seat.i;
    if (i < 0 || i >= n)
        return NULL;
    return PySequence_Fast_ITEMS(seq)[i];
}

static int call_env(Run *r, int f, Val *args, int n, Val *out)
{
    KProgram *p = r->p;
    int kind = p->fkind[f];
    if (r->facts != NULL) {
        if (kind == F_PY || n != 1)
            DECLINE(r);
        return fact_by_seat(r, p->sfield[p->fattr[f]], args[0], out);
    }
    if (kind != F_PY && n == 1) {
        if (args[0].tag == V_NONE) {  /* no seat: 0 tricks, no cards */
            if (kind == F_SEAT_INT)
                *out = num(0);
            else if (new_list(r, 0, out) < 0)
                return -1;
            return 0;
        }
        PyObject *seq = PyObject_GetAttr(r->state, PyTuple_GET_ITEM(p->names, p->fattr[f]));
        if (seq == NULL) {
            PyErr_Clear();
            DECLINE(r);
        }
        int rc = -1;
        if (kind == F_SEAT_CARDS && PySequence_Check(seq) && PyObject_Length(seq) == 0) {  /* not yet: none */
            rc = new_list(r, 0, out);
        } else {
            PyObject *x = seat_item(seq, args[0]);
            if (x != NULL && PyLong_CheckExact(x)) {
                if (kind == F_SEAT_INT) {
                    rc = from_py(r, x, out, 0);
                } else {
                    unsigned long long m = PyLong_AsUnsignedLongLong(x);
                    if (!(m == (unsigned long long)-1 && PyErr_Occurred()))
                        rc = cards_of(r, (mask_t)m, out);
                    PyErr_Clear();
                }
            }
        }
        Py_DECREF(seq);
        if (rc < 0)
            DECLINE(r);
        return 0;
    }
    PyObject *env = get_env(r);
    if (env == NULL) {
        PyErr_Clear();
        DECLINE(r);
    }
    PyObject *fn = PyObject_GetAttr(env, PyTuple_GET_ITEM(p->names, f));
    if (fn == NULL) {
        PyErr_Clear();
        DECLINE(r);
    }
    PyObject *pyargs[8];
    int made = 0, ok = n <= 8;
    for (; ok && made < n; made++)
        if ((pyargs[made] = to_py(r, args[made])) == NULL)
            ok = 0;
    PyObject *res = ok ? PyObject_Vectorcall(fn, pyargs, (size_t)n, NULL) : NULL;
    for (int k = 0; k < made; k++)
        Py_XDECREF(pyargs[k]);
    Py_DECREF(fn);
    return take_py(r, res, out);
}

/* the items max and min look at: a single list's items, else the arguments (only numbers, nones left out) */
static int extreme(Run *r, Val *args, int n, int want_max, Val *out)
{
    Val *items = args;
    int count = n;
    if (n == 1 && IS_SEQ(args[0])) {
        items = &r->arena[args[0].i];
        count = args[0].len;
    } else if (n == 1 && args[0].tag != V_NONE && !is_num(args[0])) {
        DECLINE(r);
    }
    int found = 0;
    Val best = num(0);
    for (int k = 0; k < count; k++) {
        Val x = items[k];
        if (x.tag == V_NONE)
            continue;
        if (!is_num(x))
            DECLINE(r);
        if (!found || (want_max ? x.i > best.i : x.i < best.i)) {
            best = x;
            found = 1;
        }
    }
    *out = best;
    return 0;
}

static int builtin(Run *r, int b, Val *a, int n, Val *out)
{
    switch (b) {
    case B_MAX: case B_MIN:
        return extreme(r, a, n, b == B_MAX, out);
    case B_SUM: case B_COUNT: case B_ANY: case B_ALL: {
        if (!IS_SEQ(a[0]))
            DECLINE(r);
        int64_t s = 0;
        int any = 0, all = 1;
        for (int k = 0; k < a[0].len; k++) {
            Val x = r->arena[a[0].i + k];
            if (b == B_SUM) {
                if (x.tag == V_NONE)
                    continue;
                if (!is_num(x) || k_add_overflow(s, x.i, &s))
                    DECLINE(r);
            } else {
                int t = truth(r, x);
                if (t < 0)
                    return -1;
                s += t;
                any |= t;
                all &= t;
            }
        }
        *out = b == B_ANY ? boolean(any) : b == B_ALL ? boolean(all) : num(s);
        return 0;
    }
    case B_LEN:
        if (a[0].tag == V_NONE) { *out = num(0); return 0; }
        if (!IS_SEQ(a[0]))
            DECLINE(r);
        *out = num(a[0].len);
        return 0;
    case B_PREFIX_LEN: {
        if ((!IS_SEQ(a[0]) && a[0].tag != V_NONE) || (!IS_SEQ(a[1]) && a[1].tag != V_NONE))
            DECLINE(r);
        if (a[1].tag == V_TUPLE || (a[1].tag == V_LIST && a[1].len > 16))  /* Python makes a set of them: */
            for (int j = 0; j < a[1].len; j++)                              /* a list in it cannot be */
                if (IS_SEQ(r->arena[a[1].i + j]))
                    DECLINE(r);
        int count = 0;
        for (int k = 0; IS_SEQ(a[0]) && k < a[0].len; k++) {
            int held = 0;
            for (int j = 0; IS_SEQ(a[1]) && j < a[1].len && !held; j++) {
                int e = equal(r, r->arena[a[0].i + k], r->arena[a[1].i + j]);
                if (e < 0)
                    return -1;
                held = e;
            }
            if (!held)
                break;
            count++;
        }
        *out = num(count);
        return 0;
    }
    case B_FIRST:
        if (a[0].tag == V_NONE || (IS_SEQ(a[0]) && a[0].len == 0)) { *out = none(); return 0; }
        if (!IS_SEQ(a[0]))
            DECLINE(r);
        *out = r->arena[a[0].i];
        return 0;
    case B_REST:
        if (a[0].tag == V_NONE || (IS_SEQ(a[0]) && a[0].len == 0))
            return new_list(r, 0, out);
        if (!IS_SEQ(a[0]))
            DECLINE(r);
        out->tag = V_LIST;  /* list(xs)[1:]: a list, of a tuple too */
        out->len = a[0].len - 1;
        out->i = a[0].i + 1;
        return 0;
    case B_ABS:
        if (a[0].tag == V_NONE) { *out = num(0); return 0; }
        if (!is_num(a[0]) || a[0].i == INT64_MIN)
            DECLINE(r);
        *out = num(a[0].i < 0 ? -a[0].i : a[0].i);
        return 0;
    case B_GROUP_POINTS: {
        if ((!IS_SEQ(a[0]) && a[0].tag != V_NONE) || !(is_num(a[1]) || a[1].tag == V_NONE) || !is_num(a[2]))
            DECLINE(r);
        int64_t total = 0, cnt = 0;
        for (int k = 0; IS_SEQ(a[0]) && k < a[0].len; k++) {
            Val x = r->arena[a[0].i + k];
            if (x.tag == V_NONE)
                continue;
            if (!is_num(x) || k_add_overflow(total, x.i, &total))
                DECLINE(r);
            cnt++;
        }
        if (a[1].tag == V_NONE || a[1].i < 1) { *out = num(total); return 0; }
        int64_t size = a[1].i, less = a[2].i, full = cnt / size, rest = cnt % size, x, y;
        if (less > ((int64_t)1 << 40) || less < -((int64_t)1 << 40) || size > ((int64_t)1 << 20))
            DECLINE(r);
        x = full * less;
        y = rest > 0 ? floordiv(2 * less * rest + size, 2 * size) : 0;
        if (k_sub_overflow(total, x, &total) || k_sub_overflow(total, y, &total))
            DECLINE(r);
        *out = num(total);
        return 0;
    }
    case B_DIV: case B_MOD: {
        int t = truth(r, a[1]);
        if (t < 0)
            return -1;
        if (!t) { *out = num(0); return 0; }
        if (!is_num(a[0]) || !is_num(a[1]) || (a[0].i == INT64_MIN && a[1].i == -1))
            DECLINE(r);
        *out = num(b == B_DIV ? floordiv(a[0].i, a[1].i) : floormod(a[0].i, a[1].i));
        return 0;
    }
    case B_GI: {
        if (a[1].tag != V_INT || !IS_SEQ(a[0])) { *out = none(); return 0; }
        int64_t i = a[1].i < 0 ? a[1].i + a[0].len : a[1].i;
        *out = (i < 0 || i >= a[0].len) ? none() : r->arena[a[0].i + i];
        return 0;
    }
    }
    DECLINE(r);
}

/* Python's `_seats`: one seat, none, or a list of seats */
static int seats(Run *r, Val v, Val *out)
{
    if (is_num(v)) {
        if (new_list(r, 1, out) < 0)
            return -1;
        r->arena[out->i] = num(v.i);
        return 0;
    }
    if (v.tag == V_NONE)
        return new_list(r, 0, out);
    if (!IS_SEQ(v))
        DECLINE(r);
    int n = 0;
    for (int k = 0; k < v.len; k++) {
        Val x = r->arena[v.i + k];
        if (x.tag != V_NONE && !is_num(x))
            DECLINE(r);
        n += x.tag != V_NONE;
    }
    if (new_list(r, n, out) < 0)
        return -1;
    for (int k = 0, j = 0; k < v.len; k++)
        if (r->arena[v.i + k].tag != V_NONE)
            r->arena[out->i + j++] = num(r->arena[v.i + k].i);
    return 0;
}

/* `int(amount or 0)` */
static int amount_of(Run *r, Val v, int64_t *out)
{
    int t = truth(r, v);
    if (t < 0)
        return -1;
    if (!t) { *out = 0; return 0; }
    if (!is_num(v))
        DECLINE(r);
    *out = v.i;
    return 0;
}

/* a seat's place in the payments (Python's indexing) */
static int book(Run *r, int64_t seat, int *out)
{
    int64_t i = seat < 0 ? seat + r->npay : seat;
    if (i < 0 || i >= r->npay)
        DECLINE(r);
    *out = (int)i;
    return 0;
}

static int transfer(Run *r, int64_t f, int64_t t, int64_t amount)
{
    int bf, bt;
    if (f == t)
        return 0;
    if (book(r, f, &bf) < 0 || book(r, t, &bt) < 0)
        return -1;
    if (k_sub_overflow(r->pay[bf], amount, &r->pay[bf]) || k_add_overflow(r->pay[bt], amount, &r->pay[bt]))
        DECLINE(r);
    return 0;
}

static int arith(Run *r, int op, Val a, Val b, Val *out)
{
    if (op == OP_ADD && a.tag == V_LIST && b.tag == V_LIST) {
        if (new_list(r, a.len + b.len, out) < 0)
            return -1;
        memcpy(&r->arena[out->i], &r->arena[a.i], sizeof(Val) * (size_t)a.len);
        memcpy(&r->arena[out->i + a.len], &r->arena[b.i], sizeof(Val) * (size_t)b.len);
        return 0;
    }
    if (!is_num(a) || !is_num(b))
        DECLINE(r);
    int64_t x;
    int over = op == OP_ADD ? k_add_overflow(a.i, b.i, &x)
             : op == OP_SUB ? k_sub_overflow(a.i, b.i, &x) : k_mul_overflow(a.i, b.i, &x);
    if (over)
        DECLINE(r);
    *out = num(x);
    return 0;
}

static int compare(Run *r, int c, Val a, Val b, Val *out)
{
    int e;
    switch (c) {
    case C_EQ: case C_NE:
        if ((e = equal(r, a, b)) < 0)
            return -1;
        *out = boolean(c == C_EQ ? e : !e);
        return 0;
    case C_IS: case C_ISNOT:
        if (b.tag != V_NONE || a.tag == V_UNSET)
            DECLINE(r);
        *out = boolean((a.tag == V_NONE) == (c == C_IS));
        return 0;
    case C_IN: case C_NOTIN: {
        if (!IS_SEQ(b))
            DECLINE(r);
        int found = 0;
        for (int k = 0; k < b.len && !found; k++) {
            if ((e = equal(r, a, r->arena[b.i + k])) < 0)
                return -1;
            found = e;
        }
        *out = boolean(c == C_IN ? found : !found);
        return 0;
    }
    }
    if (!is_num(a) || !is_num(b))
        DECLINE(r);
    e = c == C_LT ? a.i < b.i : c == C_LE ? a.i <= b.i : c == C_GT ? a.i > b.i : a.i >= b.i;
    *out = boolean(e);
    return 0;
}

#define POP() (r->stack[--r->sp])
#define NEED(k) do { if (r->sp < (k)) DECLINE(r); } while (0)

/* run the code; the outcome's string number in *outcome */
static int execute(Run *r, int64_t *outcome)
{
    KProgram *p = r->p;
    const int32_t *code = p->code;
    int pc = 0;
    long steps = 0;
    while (pc < p->ncode) {
        if (++steps > 10000000)
            DECLINE(r);
        int op = code[pc];
        const int32_t *x = &code[pc + 1];
        pc += 1 + OPERANDS[op];
        Val a, b, v;
        switch (op) {
        case OP_CONST:
            if (push(r, p->consts[x[0]]) < 0) return -1;
            break;
        case OP_LOAD:
            if (r->slots[x[0]].tag == V_UNSET || push(r, r->slots[x[0]]) < 0) DECLINE(r);
            break;
        case OP_STORE:
            NEED(1);
            r->slots[x[0]] = POP();
            break;
        case OP_POP:
            NEED(1);
            r->sp--;
            break;
        case OP_POOL:
            if (push(r, num(r->pool)) < 0) return -1;
            break;
        case OP_STATE: case OP_STATE2: {
            if (r->facts != NULL) {
                if (op == OP_STATE2 && (p->sfield[x[0]] != S_CTX || p->sfield[x[1]] != S_TRUMP_ORDER
                                        || !r->facts->has_ctx))
                    DECLINE(r);
                if (fact(r, p->sfield[x[op == OP_STATE2]], &v) < 0 || push(r, v) < 0) return -1;
                break;
            }
            PyObject *o = PyObject_GetAttr(r->state, PyTuple_GET_ITEM(p->names, x[0]));
            if (o != NULL && op == OP_STATE2) {
                PyObject *o2 = PyObject_GetAttr(o, PyTuple_GET_ITEM(p->names, x[1]));
                Py_DECREF(o);
                o = o2;
            }
            if (take_py(r, o, &v) < 0 || push(r, v) < 0) return -1;
            break;
        }
        case OP_ENV: {
            if (r->facts != NULL) {
                if (fact(r, p->efield[x[0]], &v) < 0 || push(r, v) < 0) return -1;
                break;
            }
            PyObject *env = get_env(r);
            PyObject *o = env ? PyObject_GetAttr(env, PyTuple_GET_ITEM(p->names, x[0])) : NULL;
            if (take_py(r, o, &v) < 0 || push(r, v) < 0) return -1;
            break;
        }
        case OP_FUNC:
            v.tag = V_FUNC;
            v.len = 0;
            v.i = x[0];
            if (push(r, v) < 0) return -1;
            break;
        case OP_CALLF: {
            int n = x[0];
            NEED(n + 1);
            Val f = r->stack[r->sp - n - 1];
            if (f.tag != V_FUNC || call_env(r, (int)f.i, &r->stack[r->sp - n], n, &v) < 0)
                DECLINE(r);
            r->sp -= n + 1;
            if (push(r, v) < 0) return -1;
            break;
        }
        case OP_BI: {
            int n = x[1];
            NEED(n);
            if (x[0] == B_PY) {  /* a Python helper of the state (its number on the stack), given the state */
                Val k = r->stack[r->sp - 1];
                if (k.tag != V_INT || k.i < 0 || k.i >= PyTuple_GET_SIZE(p->pyfuncs)) DECLINE(r);
                r->sp -= n;
                if (r->facts != NULL) {  /* the first helper is the defenders; there is no other here */
                    if (k.i != 0 || fact(r, S_DEFENDERS, &v) < 0) DECLINE(r);
                } else {
                    PyObject *fn = PyTuple_GET_ITEM(p->pyfuncs, k.i);
                    if (take_py(r, PyObject_CallOneArg(fn, r->state), &v) < 0) return -1;
                }
            } else {
                if (builtin(r, x[0], &r->stack[r->sp - n], n, &v) < 0) return -1;
                r->sp -= n;
            }
            if (push(r, v) < 0) return -1;
            break;
        }
        case OP_ATTR: {
            NEED(1);
            a = POP();
            int kind = a.tag == V_CARD ? 0 : a.tag == V_SUIT ? 1 : a.tag == V_CONTRACT ? 2 : -1;
            if (kind < 0 && (a.tag == V_UNSET || a.tag == V_OPAQUE || a.tag == V_FUNC)) DECLINE(r);
            v = kind < 0 ? none() : p->attrs[((int64_t)x[0] * 3 + kind) * p->width + a.i];
            if (v.tag == V_UNSET) DECLINE(r);  /* an attribute value the program could not take */
            if (push(r, v) < 0) return -1;
            break;
        }
        case OP_ADD: case OP_SUB: case OP_MUL:
            NEED(2);
            b = POP();
            a = POP();
            if (arith(r, op, a, b, &v) < 0 || push(r, v) < 0) return -1;
            break;
        case OP_NEG:
            NEED(1);
            a = POP();
            if (!is_num(a) || a.i == INT64_MIN) DECLINE(r);
            if (push(r, num(-a.i)) < 0) return -1;
            break;
        case OP_NOT: {
            NEED(1);
            int t = truth(r, POP());
            if (t < 0 || push(r, boolean(!t)) < 0) return -1;
            break;
        }
        case OP_CMP:
            NEED(2);
            b = POP();
            a = POP();
            if (compare(r, x[0], a, b, &v) < 0 || push(r, v) < 0) return -1;
            break;
        case OP_JUMP:
            pc = x[0];
            break;
        case OP_JF: {
            NEED(1);
            int t = truth(r, POP());
            if (t < 0) return -1;
            if (!t) pc = x[0];
            break;
        }
        case OP_JF_KEEP: case OP_JT_KEEP: {
            NEED(1);
            int t = truth(r, r->stack[r->sp - 1]);
            if (t < 0) return -1;
            if (t == (op == OP_JT_KEEP)) pc = x[0];
            else r->sp--;
            break;
        }
        case OP_LIST: {
            int n = x[0];
            NEED(n);
            if (new_list(r, n, &v) < 0) return -1;
            memcpy(&r->arena[v.i], &r->stack[r->sp - n], sizeof(Val) * (size_t)n);
            r->sp -= n;
            if (push(r, v) < 0) return -1;
            break;
        }
        case OP_ITER: {  /* slots: the list, the index, the variable; past the end: jump */
            Val l = r->slots[x[0]];
            if (!IS_SEQ(l) || r->slots[x[1]].tag != V_INT || r->slots[x[1]].i < 0) DECLINE(r);
            int64_t i = r->slots[x[1]].i;
            if (i >= l.len) {
                pc = x[3];
                break;
            }
            r->slots[x[2]] = r->arena[l.i + i];
            r->slots[x[1]].i = i + 1;
            break;
        }
        case OP_EMPTY:
            if (new_list(r, 0, &r->slots[x[0]]) < 0) return -1;
            break;
        case OP_APPEND: {
            NEED(1);
            a = POP();
            Val l = r->slots[x[0]];
            if (l.tag != V_LIST) DECLINE(r);
            if (l.i + l.len != r->top) {  /* not at the arena's top: copied there first */
                Val c;
                if (new_list(r, l.len, &c) < 0) return -1;
                memmove(&r->arena[c.i], &r->arena[l.i], sizeof(Val) * (size_t)l.len);
                l = c;
            }
            if (r->top >= VM_ARENA) DECLINE(r);
            r->arena[r->top++] = a;
            l.len++;
            r->slots[x[0]] = l;
            break;
        }
        case OP_SEATS:
            NEED(1);
            a = POP();
            if (seats(r, a, &v) < 0 || push(r, v) < 0) return -1;
            break;
        case OP_PAY: {  /* from, to, amount */
            NEED(3);
            Val amount = POP(), to, frm;
            b = POP();
            a = POP();
            int64_t m;
            if (amount_of(r, amount, &m) < 0 || seats(r, b, &to) < 0 || seats(r, a, &frm) < 0) return -1;
            for (int k = 0; k < frm.len; k++)
                for (int j = 0; j < to.len; j++)
                    if (transfer(r, r->arena[frm.i + k].i, r->arena[to.i + j].i, m) < 0) return -1;
            break;
        }
        case OP_PAY1: {  /* one payer, one payee, the amount (pay_each, unrolled by the translator) */
            NEED(3);
            Val amount = POP();
            b = POP();
            a = POP();
            int64_t m;
            if (amount_of(r, amount, &m) < 0 || !is_num(a) || !is_num(b) || transfer(r, a.i, b.i, m) < 0)
                DECLINE(r);
            break;
        }
        case OP_TO_POOL: {
            NEED(2);
            Val amount = POP(), frm;
            a = POP();
            int64_t m;
            if (amount_of(r, amount, &m) < 0 || seats(r, a, &frm) < 0) return -1;
            for (int k = 0; k < frm.len; k++) {
                int bf;
                if (book(r, r->arena[frm.i + k].i, &bf) < 0 || k_sub_overflow(r->pay[bf], m, &r->pay[bf])
                        || k_add_overflow(r->pool, m, &r->pool))
                    DECLINE(r);
            }
            break;
        }
        case OP_FROM_POOL: {
            NEED(2);
            Val amount = POP(), to;
            a = POP();
            int64_t m;
            if (seats(r, a, &to) < 0) return -1;
            if (to.len == 0) break;
            if (amount_of(r, amount, &m) < 0) return -1;
            int64_t share = m < r->pool ? m : r->pool;
            share = share < 0 ? 0 : share / to.len;
            for (int k = 0; k < to.len; k++) {
                int bt;
                if (book(r, r->arena[to.i + k].i, &bt) < 0 || k_add_overflow(r->pay[bt], share, &r->pay[bt]))
                    DECLINE(r);
                r->pool -= share;
            }
            break;
        }
        case OP_SET:
            NEED(1);
            if (r->nsets >= VM_SETS) DECLINE(r);
            r->set_at[r->nsets] = x[0];
            r->set_val[r->nsets++] = POP();
            break;
        case OP_RETURN:
            NEED(1);
            a = POP();
            if (a.tag != V_STR) DECLINE(r);
            *outcome = a.i;
            return 0;
        case OP_TRUTH: {  /* a condition's end: its truth */
            NEED(1);
            int t = truth(r, POP());
            if (t < 0) return -1;
            *outcome = t;
            r->truth = 1;
            return 0;
        }
        default:
            DECLINE(r);
        }
    }
    DECLINE(r);
}

/* a run's memory, kept between runs (a run started from inside another gets memory of its own) */
static Run *spare;  /* a run's memory, kept for the next run of any program (NULL while one runs) */

static Run *begin(KProgram *self, PyObject *state, const KFacts *facts)
{
    Run *r = spare;
    spare = NULL;
    if (r == NULL && (r = PyMem_Malloc(sizeof(Run))) == NULL)
        return NULL;
    r->p = self;
    r->state = state;
    r->facts = facts;
    r->env = NULL;
    r->sp = 0;
    r->top = 0;
    r->declined = 0;
    r->nsets = 0;
    r->truth = 0;
    for (int k = 0; k < self->nslots; k++)
        r->slots[k].tag = V_UNSET;
    return r;
}

static void end(Run *r)
{
    Py_XDECREF(r->env);
    if (spare == NULL)
        spare = r;
    else
        PyMem_Free(r);
}

/* Program.run(state, payments, pool) -> (outcome, payments, pool, sets: ((which, value), ...)), or None where
 * the machine declines */
static PyObject *program_run(KProgram *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "run(state, payments, pool)");
        return NULL;
    }
    PyObject *payments = args[1];
    if (!PyList_CheckExact(payments) || PyList_GET_SIZE(payments) > K_MAXSEATS) {
        PyErr_SetString(PyExc_TypeError, "payments must be a list of at most 8 ints");
        return NULL;
    }
    Run *r = begin(self, args[0], NULL);
    if (r == NULL)
        return PyErr_NoMemory();
    r->npay = (int)PyList_GET_SIZE(payments);
    PyObject *result = NULL;
    int ok = 1;
    for (int k = 0; k < r->npay && ok; k++) {
        int overflow;
        r->pay[k] = PyLong_AsLongLongAndOverflow(PyList_GET_ITEM(payments, k), &overflow);
        ok = !overflow && !(r->pay[k] == -1 && PyErr_Occurred());
    }
    int overflow = 0;
    r->pool = ok ? PyLong_AsLongLongAndOverflow(args[2], &overflow) : 0;
    ok = ok && !overflow && !(r->pool == -1 && PyErr_Occurred());
    int64_t outcome = 0;
    if (ok && execute(r, &outcome) == 0 && !r->declined) {
        PyObject *pays = k_tuple_i64(r->pay, r->npay);
        PyObject *sets = PyTuple_New(r->nsets);
        for (int k = 0; sets != NULL && k < r->nsets; k++) {
            PyObject *v = to_py(r, r->set_val[k]);
            PyObject *item = v == NULL ? NULL : Py_BuildValue("(iN)", (int)r->set_at[k], v);
            if (item == NULL) {
                Py_CLEAR(sets);
                break;
            }
            PyTuple_SET_ITEM(sets, k, item);
        }
        PyObject *o = r->truth ? (outcome ? Py_True : Py_False) : PyTuple_GET_ITEM(self->strings, outcome);
        if (pays == NULL || sets == NULL) {
            Py_XDECREF(pays);
            Py_XDECREF(sets);
            result = NULL;
        } else {
            result = Py_BuildValue("(ONLN)", o, pays, (long long)r->pool, sets);
        }
        if (result == NULL) {  /* a value it could not give back: Python runs the block */
            PyErr_Clear();
            result = Py_None;
            Py_INCREF(result);
        }
    } else {
        PyErr_Clear();
        result = Py_None;
        Py_INCREF(result);
    }
    end(r);
    return result;
}

int k_is_program(PyObject *o)
{
    return PyObject_TypeCheck(o, &KProgram_Type);
}

int k_program_fits(PyObject *prog, int ncards, int nsuits, int nk, int truth)
{
    KProgram *p = (KProgram *)prog;
    return p->ncards == ncards && p->nsuits == nsuits && p->ncontracts == nk
           && (truth ? p->truths > 0 && p->returns == 0 : p->returns > 0 && p->truths == 0);
}

int k_program_facts(PyObject *prog, const KFacts *f, int64_t *pay, int npay, int64_t *pool, int64_t *out)
{
    KProgram *self = (KProgram *)prog;
    if (npay > K_MAXSEATS)
        return 1;
    Run *r = begin(self, NULL, f);
    if (r == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    r->npay = npay;
    memcpy(r->pay, pay, sizeof(int64_t) * (size_t)npay);
    r->pool = *pool;
    int64_t outcome = 0;
    int rc = 1;
    if (execute(r, &outcome) == 0 && !r->declined && r->nsets == 0) {
        memcpy(pay, r->pay, sizeof(int64_t) * (size_t)npay);
        *pool = r->pool;
        *out = outcome;
        rc = 0;
    }
    PyErr_Clear();  /* a run on facts calls no Python: nothing to report */
    end(r);
    return rc;
}

static int program_traverse(KProgram *self, visitproc visit, void *arg)
{
    Py_VISIT(self->names);
    Py_VISIT(self->strings);
    Py_VISIT(self->string_ids);
    Py_VISIT(self->objects);
    Py_VISIT(self->object_ids);
    Py_VISIT(self->pyfuncs);
    Py_VISIT(self->make_env);
    return 0;
}

static int program_clear(KProgram *self)
{
    Py_CLEAR(self->names);
    Py_CLEAR(self->strings);
    Py_CLEAR(self->string_ids);
    Py_CLEAR(self->objects);
    Py_CLEAR(self->object_ids);
    Py_CLEAR(self->pyfuncs);
    Py_CLEAR(self->make_env);
    return 0;
}

static void program_dealloc(KProgram *self)
{
    PyObject_GC_UnTrack(self);
    PyMem_Free(self->code);
    PyMem_Free(self->consts);
    PyMem_Free(self->base);
    PyMem_Free(self->attrs);
    PyMem_Free(self->fkind);
    PyMem_Free(self->fattr);
    PyMem_Free(self->sfield);
    PyMem_Free(self->efield);
    program_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* a constant or an attribute value as the translator gives it: (tag, number) */
static int pair_val(PyObject *o, int width_of[], Val *out, const char *what)
{
    long tag;
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != 2) {
        PyErr_Format(PyExc_TypeError, "%s: a (tag, number) pair", what);
        return -1;
    }
    if (k_int(PyTuple_GET_ITEM(o, 0), V_UNSET, V_OPAQUE, &tag, what) < 0)
        return -1;
    PyObject *n = PyTuple_GET_ITEM(o, 1);
    int overflow;
    long long x = PyLong_Check(n) ? PyLong_AsLongLongAndOverflow(n, &overflow) : 0;
    if (!PyLong_Check(n) || overflow || (x == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s: a number of 64 bits", what);
        return -1;
    }
    if (tag == V_LIST || tag == V_FUNC || tag == V_OPAQUE || tag == V_TUPLE) {
        PyErr_Format(PyExc_ValueError, "%s: not a constant", what);
        return -1;
    }
    if (tag >= V_STR && tag <= V_CONTRACT && (x < 0 || x >= width_of[tag - V_STR])) {
        PyErr_Format(PyExc_ValueError, "%s: no such string or object", what);
        return -1;
    }
    out->tag = (int32_t)tag;
    out->len = 0;
    out->i = tag == V_BOOL ? (x != 0) : x;
    return 0;
}

/* Program(code, nslots, consts, names, strings, objects, bases, attrs, fkinds, fields, pyfuncs, make_env) */
static PyObject *program_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    PyObject *code, *consts, *names, *strings, *objects, *bases, *attrs, *fkinds, *fields, *pyfuncs, *make_env;
    int nslots;
    if (kw != NULL && PyDict_GET_SIZE(kw)) {
        PyErr_SetString(PyExc_TypeError, "Program takes no keywords");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "O!iO!O!O!O!O!O!O!O!O!O", &PyTuple_Type, &code, &nslots, &PyTuple_Type, &consts,
                          &PyTuple_Type, &names, &PyTuple_Type, &strings, &PyTuple_Type, &objects,
                          &PyTuple_Type, &bases, &PyTuple_Type, &attrs, &PyTuple_Type, &fkinds,
                          &PyTuple_Type, &fields, &PyTuple_Type, &pyfuncs, &make_env))
        return NULL;
    if (nslots < 0 || nslots > VM_SLOTS) {
        PyErr_SetString(PyExc_ValueError, "too many slots");
        return NULL;
    }
    if (PyTuple_GET_SIZE(objects) != 3) {
        PyErr_SetString(PyExc_ValueError, "objects: (cards, suits, contracts)");
        return NULL;
    }
    for (int k = 0; k < 3; k++)
        if (!PyTuple_Check(PyTuple_GET_ITEM(objects, k))) {
            PyErr_SetString(PyExc_TypeError, "objects: three tuples");
            return NULL;
        }
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(strings); k++)
        if (!PyUnicode_CheckExact(PyTuple_GET_ITEM(strings, k))) {
            PyErr_SetString(PyExc_TypeError, "strings: a tuple of str");
            return NULL;
        }
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(names); k++)
        if (!PyUnicode_CheckExact(PyTuple_GET_ITEM(names, k))) {
            PyErr_SetString(PyExc_TypeError, "names: a tuple of str");
            return NULL;
        }
    if (!PyCallable_Check(make_env)) {
        PyErr_SetString(PyExc_TypeError, "make_env must be callable");
        return NULL;
    }
    int ncontracts = (int)PyTuple_GET_SIZE(PyTuple_GET_ITEM(objects, 2));
    if (PyTuple_GET_SIZE(bases) != ncontracts) {
        PyErr_SetString(PyExc_ValueError, "bases: one per contract");
        return NULL;
    }
    KProgram *self = (KProgram *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    int width_of[4] = {(int)PyTuple_GET_SIZE(strings), (int)PyTuple_GET_SIZE(PyTuple_GET_ITEM(objects, 0)),
                       (int)PyTuple_GET_SIZE(PyTuple_GET_ITEM(objects, 1)), ncontracts};
    int nnames = (int)PyTuple_GET_SIZE(names);
    self->ncode = (int)PyTuple_GET_SIZE(code);
    self->nslots = nslots;
    self->nconsts = (int)PyTuple_GET_SIZE(consts);
    self->ncontracts = ncontracts;
    self->ncards = width_of[1];
    self->nsuits = width_of[2];
    self->nattrs = (int)PyTuple_GET_SIZE(attrs);
    self->width = width_of[1] > width_of[2] ? width_of[1] : width_of[2];
    if (ncontracts > self->width)
        self->width = ncontracts;
    self->code = PyMem_Malloc(sizeof(int32_t) * (size_t)(self->ncode + 1));
    self->consts = PyMem_Malloc(sizeof(Val) * (size_t)(self->nconsts + 1));
    self->base = PyMem_Malloc(sizeof(int32_t) * (size_t)(ncontracts + 1));
    self->attrs = PyMem_Calloc((size_t)self->nattrs * 3 * (size_t)self->width + 1, sizeof(Val));
    self->fkind = PyMem_Malloc(sizeof(int32_t) * (size_t)(nnames + 1));
    self->fattr = PyMem_Malloc(sizeof(int32_t) * (size_t)(nnames + 1));
    self->sfield = PyMem_Malloc(sizeof(int32_t) * (size_t)(nnames + 1));
    self->efield = PyMem_Malloc(sizeof(int32_t) * (size_t)(nnames + 1));
    Py_INCREF(names); self->names = names;
    Py_INCREF(strings); self->strings = strings;
    Py_INCREF(objects); self->objects = objects;
    Py_INCREF(pyfuncs); self->pyfuncs = pyfuncs;
    Py_INCREF(make_env); self->make_env = make_env;
    self->string_ids = PyDict_New();
    self->object_ids = PyDict_New();
    if (!self->code || !self->consts || !self->base || !self->attrs || !self->fkind || !self->fattr
            || !self->sfield || !self->efield
            || !self->string_ids || !self->object_ids)
        goto fail;
    for (int k = 0; k < width_of[0]; k++) {
        PyObject *n = PyLong_FromLong(k);
        if (n == NULL || PyDict_SetItem(self->string_ids, PyTuple_GET_ITEM(strings, k), n) < 0) {
            Py_XDECREF(n);
            goto fail;
        }
        Py_DECREF(n);
    }
    for (int t = 0; t < 3; t++) {
        PyObject *objs = PyTuple_GET_ITEM(objects, t);
        for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(objs); k++) {
            PyObject *key = PyLong_FromVoidPtr(PyTuple_GET_ITEM(objs, k));
            PyObject *val = PyLong_FromLongLong(((long long)(V_CARD + t) << 32) | (long long)k);
            int bad = key == NULL || val == NULL || PyDict_SetItem(self->object_ids, key, val) < 0;
            Py_XDECREF(key);
            Py_XDECREF(val);
            if (bad)
                goto fail;
        }
    }
    for (int k = 0; k < ncontracts; k++) {
        long b;
        if (k_int(PyTuple_GET_ITEM(bases, k), 0, ncontracts - 1, &b, "a contract's base") < 0)
            goto fail;
        self->base[k] = (int32_t)b;
    }
    for (int k = 0; k < self->nconsts; k++)
        if (pair_val(PyTuple_GET_ITEM(consts, k), width_of, &self->consts[k], "a constant") < 0)
            goto fail;
    /* attrs: per attribute, three tuples (cards, suits, contracts) of (tag, number) pairs, (0, 0) unknown */
    for (int k = 0; k < self->nattrs; k++) {
        PyObject *three = PyTuple_GET_ITEM(attrs, k);
        if (!PyTuple_Check(three) || PyTuple_GET_SIZE(three) != 3) {
            PyErr_SetString(PyExc_ValueError, "attrs: three tuples per attribute");
            goto fail;
        }
        for (int t = 0; t < 3; t++) {
            PyObject *vals = PyTuple_GET_ITEM(three, t);
            if (!PyTuple_Check(vals) || PyTuple_GET_SIZE(vals) != width_of[t + 1]) {
                PyErr_SetString(PyExc_ValueError, "attrs: a value per object");
                goto fail;
            }
            for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(vals); j++)
                if (pair_val(PyTuple_GET_ITEM(vals, j), width_of, &self->attrs[((int64_t)k * 3 + t) * self->width + j],
                             "an attribute value") < 0)
                    goto fail;
        }
    }
    if (PyTuple_GET_SIZE(fkinds) != nnames) {
        PyErr_SetString(PyExc_ValueError, "fkinds: one (kind, name) per name");
        goto fail;
    }
    for (int k = 0; k < nnames; k++) {
        PyObject *pair = PyTuple_GET_ITEM(fkinds, k);
        long kind, at;
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2
                || k_int(PyTuple_GET_ITEM(pair, 0), F_PY, F_SEAT_CARDS, &kind, "a function's kind") < 0
                || k_int(PyTuple_GET_ITEM(pair, 1), 0, nnames - 1, &at, "a function's list") < 0) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "fkinds: (kind, name) pairs");
            goto fail;
        }
        self->fkind[k] = (int32_t)kind;
        self->fattr[k] = (int32_t)at;
    }
    if (PyTuple_GET_SIZE(fields) != nnames) {
        PyErr_SetString(PyExc_ValueError, "fields: one (state, environment) pair per name");
        goto fail;
    }
    for (int k = 0; k < nnames; k++) {
        PyObject *pair = PyTuple_GET_ITEM(fields, k);
        long sf, ef;
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2
                || k_int(PyTuple_GET_ITEM(pair, 0), 0, S_LAST - 1, &sf, "a name's field") < 0
                || k_int(PyTuple_GET_ITEM(pair, 1), 0, S_LAST - 1, &ef, "a name's field") < 0) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "fields: (state, environment) pairs");
            goto fail;
        }
        self->sfield[k] = (int32_t)sf;
        self->efield[k] = (int32_t)ef;
    }
    /* the code: every operation known, its operands in range, every jump inside the code */
    for (int k = 0; k < self->ncode; k++) {
        long v;
        if (k_int(PyTuple_GET_ITEM(code, k), INT32_MIN, INT32_MAX, &v, "the code") < 0)
            goto fail;
        self->code[k] = (int32_t)v;
    }
    /* every operation known, its operands in range, every jump to the start of an operation (or the end) */
    char *start = PyMem_Calloc((size_t)self->ncode + 1, 1);
    if (start == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    start[self->ncode] = 1;
    int bad_at = -1;
    for (int pc = 0; pc < self->ncode && bad_at < 0;) {
        int op = self->code[pc];
        if (op < 0 || op >= OP_COUNT || pc + OPERANDS[op] >= self->ncode) {
            bad_at = pc;
            break;
        }
        start[pc] = 1;
        const int32_t *x = &self->code[pc + 1];
        int bad = 0;
        switch (op) {
        case OP_CONST: bad = x[0] < 0 || x[0] >= self->nconsts; break;
        case OP_LOAD: case OP_STORE: case OP_APPEND: case OP_EMPTY: bad = x[0] < 0 || x[0] >= nslots; break;
        case OP_STATE: case OP_ENV: case OP_FUNC: bad = x[0] < 0 || x[0] >= nnames; break;
        case OP_STATE2: bad = x[0] < 0 || x[0] >= nnames || x[1] < 0 || x[1] >= nnames; break;
        case OP_CALLF: case OP_LIST: bad = x[0] < 0 || x[0] > VM_STACK; break;
        case OP_BI: bad = x[0] < 0 || x[0] >= B_NUMBER || x[1] < ARITY[x[0]][0] || x[1] > ARITY[x[0]][1]; break;
        case OP_ATTR: bad = x[0] < 0 || x[0] >= self->nattrs; break;
        case OP_CMP: bad = x[0] < 0 || x[0] >= C_COUNT; break;
        case OP_SET: bad = x[0] < 0; break;
        case OP_JUMP: case OP_JF: case OP_JF_KEEP: case OP_JT_KEEP: bad = x[0] < 0 || x[0] > self->ncode; break;
        case OP_ITER: bad = x[0] < 0 || x[0] >= nslots || x[1] < 0 || x[1] >= nslots || x[2] < 0 || x[2] >= nslots
                            || x[3] < 0 || x[3] > self->ncode; break;
        case OP_RETURN: self->returns++; break;
        case OP_TRUTH: self->truths++; break;
        }
        if (bad) {
            PyMem_Free(start);
            PyErr_Format(PyExc_ValueError, "the code: an operand out of range at %d", pc);
            goto fail;
        }
        pc += 1 + OPERANDS[op];
    }
    for (int pc = 0; pc < self->ncode && bad_at < 0; pc += 1 + OPERANDS[self->code[pc]]) {
        int op = self->code[pc], target = -1;
        if (op == OP_JUMP || op == OP_JF || op == OP_JF_KEEP || op == OP_JT_KEEP)
            target = self->code[pc + 1];
        else if (op == OP_ITER)
            target = self->code[pc + 4];
        if (target >= 0 && !start[target]) {
            PyMem_Free(start);
            PyErr_Format(PyExc_ValueError, "the code: a jump into an operation at %d", pc);
            goto fail;
        }
    }
    PyMem_Free(start);
    if (bad_at >= 0) {
        PyErr_Format(PyExc_ValueError, "the code: a bad operation at %d", bad_at);
        goto fail;
    }
    return (PyObject *)self;
fail:
    Py_DECREF(self);
    return NULL;
}

static PyMemberDef program_members[] = {
    {"strings", T_OBJECT_EX, offsetof(KProgram, strings), READONLY, "the program's strings, by number"},
    {NULL}};

static PyMethodDef program_methods[] = {
    {"run", (PyCFunction)(void (*)(void))program_run, METH_FASTCALL,
     "run(state, payments, pool) -> (outcome, payments, pool, sets), or None where the machine declines"},
    {NULL}};

PyTypeObject KProgram_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ombre_rules.kernel._ckernel.Program",
    .tp_basicsize = sizeof(KProgram),
    .tp_dealloc = (destructor)program_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = (traverseproc)program_traverse,
    .tp_clear = (inquiry)program_clear,
    .tp_doc = "A settlement block translated for the settlement machine (kernel/vm.py makes it).",
    .tp_methods = program_methods,
    .tp_members = program_members,
    .tp_new = program_new,
};
