"""Compiled helpers below numba's Python level, for the engine's hot loop (engine.play) and its
drivers.

The intrinsics only change how the engine reaches what it already holds; none copies an array
or frees it. `copy_rows` and `put` copy element by element where a slice assignment would need
numba's runtime (the drivers' loops run without it).
"""

import numba as nb
from llvmlite import ir
from numba.core import cgutils, types
from numba.core.imputils import impl_ret_borrowed
from numba.extending import intrinsic
from numba.np.arrayobj import populate_array


@intrinsic
def seat_table(typingctx, lineup):
    """A pointer to a copy of the lineup tuple in the caller's stack frame, so `table[seat]` is
    one indexed load. Indexing the tuple itself compiles to a jump table over all 2 x 12
    indices (negative ones too), an indirect jump that mispredicts whenever the seat order
    changes. Valid only inside the calling function; seats must be 0 <= seat < MAX_PLAYERS.
    """
    if not isinstance(lineup, types.UniTuple):
        return None
    sig = types.CPointer(lineup.dtype)(lineup)

    def codegen(context, builder, sig, args):
        slot = cgutils.alloca_once(builder, args[0].type)  # in the caller's entry block
        builder.store(args[0], slot)
        return builder.bitcast(slot, context.get_value_type(sig.return_type))

    return sig, codegen


@intrinsic
def arranged(typingctx, lineup, order):
    """The lineup's functions seated anew: (lineup[order[0]], ..., lineup[order[N-1]]), for a
    replay of the same deals with the strategies moved round the table. A tuple cannot be
    indexed by a value known only at run time without a jump table per element; a copy of it
    in the stack frame can. order[i] must be 0 <= order[i] < N."""
    if not (isinstance(lineup, types.UniTuple) and isinstance(order, types.Array) and order.ndim == 1
            and order.dtype == types.int64):
        return None
    sig = lineup(lineup, order)

    def codegen(context, builder, sig, args):
        slot = cgutils.alloca_once(builder, args[0].type)
        builder.store(args[0], slot)
        table = builder.bitcast(slot, context.get_value_type(types.CPointer(lineup.dtype)))
        seats = context.make_array(sig.args[1])(context, builder, args[1])
        out = cgutils.get_null_value(args[0].type)
        for i in range(lineup.count):
            at = builder.load(cgutils.gep(builder, seats.data, i))
            out = builder.insert_value(out, builder.load(builder.gep(table, [at])), i)
        return out

    return sig, codegen


@intrinsic
def unowned(typingctx, arr, shape):
    """The same C-contiguous memory as `arr`, seen with `shape` and no owner (see engine.play)."""
    if not (isinstance(arr, types.Array) and isinstance(shape, types.BaseTuple)
            and len(shape) == arr.ndim and arr.layout == "C"):
        return None
    sig = arr(arr, shape)

    def codegen(context, builder, sig, args):
        src = context.make_array(sig.args[0])(context, builder, args[0])
        dims = cgutils.unpack_tuple(builder, args[1])
        itemsize = context.get_abi_sizeof(context.get_data_type(sig.args[0].dtype))
        strides = [context.get_constant(types.intp, itemsize)]
        for d in reversed(dims[1:]):  # C order: each stride is the next one times its extent
            strides.insert(0, builder.mul(strides[0], d))
        out = context.make_array(sig.return_type)(context, builder)
        populate_array(out, data=src.data, shape=dims, strides=strides, itemsize=itemsize,
                       meminfo=None)
        return out._getvalue()

    return sig, codegen


def _bit_count(name):
    """An intrinsic for LLVM's `name` on an int64 (one instruction on x86-64 and ARM); the
    argument must not be 0."""

    @intrinsic
    def count(typingctx, x):
        if not isinstance(x, types.Integer):
            return None
        sig = types.int64(x)

        def codegen(context, builder, sig, args):
            word = builder.sext(args[0], ir.IntType(64)) if sig.args[0].bitwidth < 64 else args[0]
            fn = cgutils.get_or_insert_function(
                builder.module, ir.FunctionType(ir.IntType(64), [ir.IntType(64), ir.IntType(1)]),
                f"llvm.{name}.i64")
            return builder.call(fn, [word, ir.Constant(ir.IntType(1), 1)])

        return sig, codegen

    return count


lowest_bit = _bit_count("cttz")  # the index of the lowest set bit of a nonzero int64
_leading_zeros = _bit_count("ctlz")


@nb.njit(inline="always", cache=True)
def highest_bit(x):
    """The index of the highest set bit of a nonzero int64."""
    return 63 - _leading_zeros(x)


@intrinsic
def readonly(typingctx, arr):
    """The same array typed read-only, so a strategy handed it cannot write the engine's state
    (numba then refuses to compile a write). Free: the two types share one data layout. Where
    numba counts references (a function compiled with its runtime), the result is a reference of
    its own, as numba expects of a returned value; without the runtime nothing is counted."""
    if not isinstance(arr, types.Array):
        return None
    sig = arr.copy(readonly=True)(arr)

    def codegen(context, builder, sig, args):
        return impl_ret_borrowed(context, builder, sig.return_type, args[0])

    return sig, codegen


@nb.njit(inline="always", cache=True)
def copy_rows(dst, src):
    """dst[:] = src for 2-D arrays of one shape, with no temporary (a slice assignment may copy
    its source first)."""
    for i in range(src.shape[0]):
        for j in range(src.shape[1]):
            dst[i, j] = src[i, j]


@nb.njit(inline="always", cache=True)
def put(dst, at, src):
    """dst[at:at + len(src)] = src for 1-D arrays, with no temporary (as `copy_rows`)."""
    for k in range(src.shape[0]):
        dst[at + k] = src[k]
