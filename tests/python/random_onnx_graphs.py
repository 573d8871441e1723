# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 the executorch-ascend authors.
"""Seeded random ONNX graphs aimed at the emulator's specialised kernels and atc's rewrites
(CONTRIBUTING.md, "Random differential tests"): Conv chains whose layouts are agreed at load
(NHWC between oneDNN Convs, several readers some NCHW-only), atc's fusions (Conv+BatchNorm,
Conv+Relu, Conv+Add residual with broadcasting, zero spatial Pad merged into Conv), depthwise
strips and flat kernels, NHWC/NCHW MaxPool and GlobalAveragePool, Softmax/Sigmoid/Exp with
masked scores and NaN/-inf, innermost ReduceMean/ReduceSum, LayerNormalization, Gemm and
broadcasting MatMul, in fp32 and (where the op takes it) fp16.

make_case(seed) -> Case builds one graph with inputs; the expected outputs come from onnxruntime's
CPU provider; check_case compiles and runs it on the emulator (emulator_onnx.py) and compares.
scripts/random_graphs.py runs many seeds, tests/python/test_random_graphs.py a few through it."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import onnx
from emulator_onnx import EmulatorOnnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 17


@dataclass
class Case:
    """One random graph: the model, its inputs and what it is about (for failure messages)."""

    seed: int
    family: str
    model: onnx.ModelProto
    inputs: dict[str, np.ndarray]
    about: str
    # fp16 graphs compare looser.
    rtol: float = 1e-3
    atol: float = 1e-4
    # Initializers stored as ONNX external data and compiled with --external_weight=1: a
    # BatchNorm's scale then stays a FusedConv weight-scale input instead of being folded.
    external: bool = False


@dataclass
class _Graph:
    rng: np.random.Generator
    dtype: type = np.float32
    nodes: list[onnx.NodeProto] = field(default_factory=list)
    inits: list[onnx.TensorProto] = field(default_factory=list)
    inputs: list[onnx.ValueInfoProto] = field(default_factory=list)
    feeds: dict[str, np.ndarray] = field(default_factory=dict)
    outputs: list[str] = field(default_factory=list)
    count: int = 0

    @property
    def elem(self) -> int:
        return TensorProto.FLOAT16 if self.dtype == np.float16 else TensorProto.FLOAT

    def name(self, op: str) -> str:
        self.count += 1
        return f"{op.lower()}_{self.count}"

    def input(self, shape: tuple[int, ...], values: np.ndarray | None = None) -> str:
        name = f"x{len(self.inputs)}"
        self.inputs.append(helper.make_tensor_value_info(name, self.elem, list(shape)))
        data = values if values is not None else self.rng.standard_normal(shape)
        with np.errstate(over="ignore"):  # -1e30 is -inf in float16, on purpose
            self.feeds[name] = np.asarray(data).astype(self.dtype)
        return name

    def const(self, values: np.ndarray, dtype: type | None = None) -> str:
        name = f"w{len(self.inits)}"
        self.inits.append(
            numpy_helper.from_array(np.asarray(values).astype(dtype or self.dtype), name)
        )
        return name

    def ints(self, values: list[int]) -> str:
        return self.const(np.array(values, dtype=np.int64), np.int64)

    def op(self, op: str, inputs: list[str], n_out: int = 1, **attrs: object) -> str:
        node_name = self.name(op)
        outs = [f"{node_name}_out{i}" for i in range(n_out)]
        self.nodes.append(helper.make_node(op, inputs, outs, name=node_name, **attrs))
        return outs[0]

    def model(self) -> onnx.ModelProto:
        outs = [helper.make_tensor_value_info(o, self.elem, None) for o in self.outputs]
        graph = helper.make_graph(self.nodes, "random", self.inputs, outs, self.inits)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
        model.ir_version = 8
        # Output shapes from ONNX's shape inference (atc wants them on the graph outputs).
        inferred = onnx.shape_inference.infer_shapes(model, strict_mode=True)
        known = {v.name: v for v in [*inferred.graph.value_info, *inferred.graph.output]}
        for out in model.graph.output:
            if out.name in known:
                out.CopyFrom(known[out.name])
        return model


def _pick(rng: np.random.Generator, options: list) -> object:
    return options[int(rng.integers(len(options)))]


def _channels(rng: np.random.Generator) -> int:
    """Odd and even counts 1..70, weighted to the block edges (8, 16) of the vector kernels."""
    return int(_pick(rng, [1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 20, 24, 31, 33, 48, 64, 65, 70]))


def _plane(rng: np.random.Generator, wide: bool = False) -> tuple[int, int]:
    if wide:  # wider than the kernels' stack row buffers (1024 and 4096 floats)
        return int(rng.integers(1, 4)), int(_pick(rng, [1024, 1030, 1031, 1100, 4096, 4100, 4101]))
    if rng.random() < 0.3:  # wide enough for several vectors of output columns
        return int(rng.integers(1, 40)), int(rng.integers(16, 72))
    return int(rng.integers(1, 20)), int(rng.integers(1, 24))


def _ceil_agrees(size: int, k: int, s: int, pad_begin: int, pad_end: int, dil: int = 1) -> bool:
    """Whether ceil_mode's last window starts inside the input or its begin padding. When it
    does not, ONNX's shape inference (and atc's, libonnx 1.12) counts one more output than
    onnxruntime and PyTorch, and atc refuses the node (the partitioner keeps such a pool on
    the CPU): not a case to compare."""
    span = size + pad_begin + pad_end - dil * (k - 1) - 1
    out = -(-span // s) + 1
    return (out - 1) * s < size + pad_begin


def _conv_weight(g: _Graph, cout: int, cin_per_group: int, kh: int, kw: int) -> str:
    scale = 1.0 / np.sqrt(max(1, cin_per_group * kh * kw))
    return g.const(g.rng.standard_normal((cout, cin_per_group, kh, kw)) * scale)


def _conv(
    g: _Graph, x: str, cin: int, h: int, w: int, cout: int | None = None, depthwise: bool = False
) -> tuple[str, int, int, int, str]:
    """A random Conv on x [N, cin, h, w]; returns (output, cout, oh, ow, description)."""
    rng = g.rng
    group = 1
    if depthwise:
        cout = cin * int(_pick(rng, [1, 1, 1, 2]))
        group = cin
    elif cout is None:
        cout = _channels(rng)
    if not depthwise and rng.random() < 0.2:  # grouped
        divisors = [d for d in range(2, 9) if cin % d == 0]
        if divisors:
            group = int(_pick(rng, divisors))
            cout = group * max(1, cout // group)
    k = int(_pick(rng, [1, 1, 3, 3, 3, 5, 7])) if not depthwise else int(_pick(rng, [3, 3, 5, 7]))
    kh, kw = (k, k) if rng.random() < 0.8 else (k, int(_pick(rng, [1, 3])))
    stride = int(_pick(rng, [1, 1, 2, 3])) if rng.random() < 0.9 else 1
    sh, sw = (stride, stride) if rng.random() < 0.85 else (stride, 1)
    dil = 1 if rng.random() < 0.8 else 2
    style = _pick(rng, ["same", "same", "zero", "asym", "tf"])
    if style == "same":
        pads = [dil * (kh // 2), dil * (kw // 2)] * 2
    elif style == "zero":
        pads = [0, 0, 0, 0]
    elif style == "tf":  # TF "SAME" with stride 2: the extra pad at the end
        pads = [dil * (kh - 1) // 2, dil * (kw - 1) // 2, dil * kh // 2, dil * kw // 2]
    else:
        pads = [int(rng.integers(0, kh)), int(rng.integers(0, kw))]
        pads += [int(rng.integers(0, kh)), int(rng.integers(0, kw))]
    ekh, ekw = dil * (kh - 1) + 1, dil * (kw - 1) + 1
    oh = (h + pads[0] + pads[2] - ekh) // sh + 1
    ow = (w + pads[1] + pads[3] - ekw) // sw + 1
    if oh < 1 or ow < 1:  # too small a plane for this window: pad it up
        pads = [ekh, ekw, ekh, ekw]
        oh = (h + 2 * ekh - ekh) // sh + 1
        ow = (w + 2 * ekw - ekw) // sw + 1
    inputs = [x, _conv_weight(g, cout, cin // group, kh, kw)]
    if rng.random() < 0.7:
        inputs.append(g.const(rng.standard_normal(cout) * 0.1))
    attrs: dict[str, object] = dict(kernel_shape=[kh, kw], strides=[sh, sw], pads=pads)
    if dil != 1:
        attrs["dilations"] = [dil, dil]
    if group != 1:
        attrs["group"] = group
    y = g.op("Conv", inputs, **attrs)
    about = f"Conv {cin}->{cout} k{kh}x{kw} s{sh}x{sw} d{dil} g{group} pads{pads} on {h}x{w}"
    return y, cout, oh, ow, about


def _batchnorm(g: _Graph, x: str, c: int) -> str:
    """Mostly as the lowering writes an inference batch norm (x * scale + shift, per-channel
    constants atc folds into the Conv before it), in the shapes and operand orders ONNX allows;
    sometimes a BatchNormalization node (atc leaves it alone)."""
    rng = g.rng
    if rng.random() < 0.75:
        shape = _pick(rng, [(c, 1, 1), (c, 1, 1), (1, c, 1, 1), (1,), ()])
        if shape in ((1,), ()):
            scale, shift = np.full(shape, rng.uniform(0.5, 1.5)), np.full(shape, 0.1)
        else:
            scale, shift = rng.uniform(-1.5, 1.5, shape), rng.uniform(-0.3, 0.3, shape)
        parts = _pick(rng, ["both", "both", "mul", "add"])
        if parts != "add":
            s_name = g.const(scale)
            x = g.op("Mul", [x, s_name] if rng.random() < 0.7 else [s_name, x])
        if parts != "mul":
            b_name = g.const(shift)
            x = g.op("Add", [x, b_name] if rng.random() < 0.7 else [b_name, x])
        return x
    return g.op(
        "BatchNormalization",
        [
            x,
            g.const(rng.uniform(0.5, 1.5, c)),
            g.const(rng.uniform(-0.2, 0.2, c)),
            g.const(rng.uniform(-0.5, 0.5, c)),
            g.const(rng.uniform(0.5, 2.0, c)),
        ],
        epsilon=1e-5,
    )


def _conv_chain(g: _Graph) -> str:
    """Input -> [Pad] -> Conv [+BN] [+Relu] -> readers: Convs (NHWC agreed), pools, elementwise,
    residual Adds (same shape, [C,1,1] broadcast), graph outputs."""
    rng = g.rng
    n = int(_pick(rng, [1, 1, 2]))
    cin = _channels(rng) if rng.random() < 0.7 else 3
    # A stem: few input channels into one or more channel blocks (oneDNN's first-layer kernel
    # reads the NCHW input as it is and writes NHWC: 16 channels on AVX-512, 8 on AVX2).
    stem = rng.random() < 0.2
    if stem:
        cin = int(_pick(rng, [1, 2, 3, 4, 15]))
    h, w = _plane(rng)
    x = g.input((n, cin, h, w))
    notes = []
    if rng.random() < 0.3:
        x, cin, h, w, about = _pad(g, x, cin, h, w)
        notes.append(about)
    block_input = (x, cin, h, w)
    y, c, h, w, about = _conv(g, x, cin, h, w, cout=int(_pick(rng, [8, 16, 32])) if stem else None)
    notes.append(about)
    for _ in range(int(rng.integers(1, 4))):
        if rng.random() < 0.15:  # the Conv's own output read elsewhere: no fusion may hide it
            g.outputs.append(g.op("Sigmoid", [y]) if rng.random() < 0.5 else y)
            notes.append("pre-activation read")
        if rng.random() < 0.5:
            y = _batchnorm(g, y, c)
            notes.append("BN")
            if rng.random() < 0.1:
                g.outputs.append(y)
                notes.append("BN output read")
        if rng.random() < 0.5:
            act = str(_pick(rng, ["Relu", "Relu", "Relu", "Sigmoid", "Clip"]))
            bounds = [g.const(np.array(0.0)), g.const(np.array(6.0))] if act == "Clip" else []
            y = g.op(act, [y, *bounds])
            notes.append(act)
        readers = int(rng.integers(1, 4))
        branches = []
        for _ in range(readers):
            kind = _pick(rng, ["conv", "conv", "conv", "sigmoid", "output", "maxpool", "add"])
            if kind == "conv":
                same = rng.random() < 0.5
                z, zc, zh, zw, about = _conv(g, y, c, h, w, cout=c if same else None)
                notes.append(about)
                if zc == c and (zh, zw) == (h, w) and rng.random() < 0.6:
                    other = y
                    if block_input[1:] == (zc, zh, zw) and rng.random() < 0.3:
                        other = block_input[0]  # the residual is the graph input
                    z = g.op("Add", [z, other] if rng.random() < 0.6 else [other, z])
                    notes.append("residual Add")
                elif rng.random() < 0.2:  # a per-channel or scalar operand on a Conv's Add
                    shape = _pick(rng, [(zc, 1, 1), (1, zc, 1, 1), (1,), (1, 1, zh, zw)])
                    z = g.op("Add", [z, g.const(rng.standard_normal(shape))])
                    notes.append(f"Conv+Add{shape}")
                    if rng.random() < 0.5:
                        z = g.op("Relu", [z])
                branches.append((z, zc, zh, zw))
            elif kind == "sigmoid":
                g.outputs.append(g.op("Sigmoid", [y]))
            elif kind == "output":
                g.outputs.append(y)
            elif kind == "maxpool":
                k = int(_pick(rng, [2, 3]))
                s = int(_pick(rng, [1, 2]))
                pad = int(rng.integers(0, k // 2 + 1))
                ceil = int(rng.random() < 0.4)
                ceil &= _ceil_agrees(h, k, s, pad, pad) & _ceil_agrees(w, k, s, pad, pad)
                if h + 2 * pad >= k and w + 2 * pad >= k:
                    pooled = g.op(
                        "MaxPool",
                        [y],
                        kernel_shape=[k, k],
                        strides=[s, s],
                        pads=[pad] * 4,
                        ceil_mode=ceil,
                    )
                    notes.append(f"MaxPool k{k} s{s} p{pad} ceil{ceil}")
                    ph, pw = (-(-(h + 2 * pad - k) // s) + 1, -(-(w + 2 * pad - k) // s) + 1)
                    if not ceil:
                        ph, pw = (h + 2 * pad - k) // s + 1, (w + 2 * pad - k) // s + 1
                    # the pooled tensor goes on down the chain (NHWC through the MaxPool)
                    branches.append((pooled, c, ph, pw))
            else:  # broadcast residual: [C,1,1] or [1,C,1,1] or [1,1,1,W]
                shape = _pick(rng, [(c, 1, 1), (1, c, 1, 1), (1, 1, 1, w), (1,)])
                g.outputs.append(g.op("Add", [y, g.const(rng.standard_normal(shape))]))
                notes.append(f"Add bcast{shape}")
        if not branches:
            break
        y, c, h, w = branches[0]
        for extra in branches[1:]:
            g.outputs.append(extra[0])
    if rng.random() < 0.5:
        g.outputs.append(g.op("GlobalAveragePool", [y]))
        notes.append("GAP")
    else:
        g.outputs.append(y)
    return "; ".join(notes)


def _pad(g: _Graph, x: str, c: int, h: int, w: int) -> tuple[str, int, int, int, str]:
    """A Pad before a Conv: the zero spatial one atc merges into the Conv, and the ones it must
    not merge (a non-zero value, reflect/edge, a channel pad, negative pads that crop).
    Returns (output, channels, height, width, description)."""
    rng = g.rng
    kind = _pick(rng, ["zero", "zero", "zero_value", "value", "reflect", "edge", "crop", "channel"])
    p = [int(v) for v in rng.integers(0, 3, 4)]
    if kind in ("reflect", "edge"):
        p = [min(v, side - 1) for v, side in zip(p, (h, w, h, w), strict=True)]
    if kind == "crop":
        p = [-min(int(rng.integers(0, 2)), (side - 1) // 2) for side in (h, w, h, w)]
    pc = 1 if kind == "channel" else 0
    pads = [0, 0, p[0], p[1], 0, pc, p[2], p[3]]
    inputs = [x, g.ints(pads)]
    attrs: dict[str, object] = {"mode": "constant"}
    if kind == "zero_value":
        inputs.append(g.const(np.array(0.0)))
    elif kind == "value":
        inputs.append(g.const(np.array(0.5)))
    elif kind in ("reflect", "edge"):
        attrs["mode"] = kind
    y = g.op("Pad", inputs, **attrs)
    return y, c + pc, h + p[0] + p[2], w + p[1] + p[3], f"Pad {kind} {p}"


def _depthwise(g: _Graph) -> str:
    rng = g.rng
    n = int(_pick(rng, [1, 2]))
    c = _channels(rng)
    h, w = _plane(rng, wide=rng.random() < 0.15)
    x = g.input((n, c, h, w))
    y, c2, _, _, about = _conv(g, x, c, h, w, depthwise=True)
    if rng.random() < 0.3:
        y = _batchnorm(g, y, c2)
        about += " BN"
    if rng.random() < 0.4:
        y = g.op(_pick(rng, ["Relu", "Sigmoid"]), [y])
    g.outputs.append(y)
    return about


def _special_values(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    x = rng.standard_normal(shape)
    mask = rng.random(shape)
    x[mask < 0.05] = -np.inf
    x[(mask >= 0.05) & (mask < 0.08)] = -1e30
    return x


def _pool(g: _Graph) -> str:
    rng = g.rng
    n, c = int(_pick(rng, [1, 2])), _channels(rng)
    h, w = _plane(rng, wide=rng.random() < 0.1)
    if rng.random() < 0.5:  # pooled after a Conv, so the NHWC pool path reads it
        x = g.input((n, c, h, w))
        x, c, h, w, _ = _conv(g, x, c, h, w)
        x = g.op("Relu", [x]) if rng.random() < 0.5 else x
    else:  # -inf and huge negatives (NaN: max's NaN rules differ, onnxruntime's by order)
        x = g.input((n, c, h, w), _special_values(rng, (n, c, h, w)))
    op = _pick(rng, ["MaxPool", "MaxPool", "GlobalAveragePool", "AveragePool"])
    if op == "GlobalAveragePool":
        g.outputs.append(g.op(op, [x]))
        return f"GAP c{c} {h}x{w}"
    kh, kw = int(_pick(rng, [1, 2, 3, 5])), int(_pick(rng, [1, 2, 3]))
    sh, sw = int(_pick(rng, [1, 2, 3])), int(_pick(rng, [1, 2]))
    pads = [int(rng.integers(0, kh // 2 + 1)), int(rng.integers(0, kw // 2 + 1))]
    pads += [int(rng.integers(0, kh // 2 + 1)), int(rng.integers(0, kw // 2 + 1))]
    dil = 2 if op == "MaxPool" and rng.random() < 0.2 else 1
    if h + pads[0] + pads[2] < dil * (kh - 1) + 1 or w + pads[1] + pads[3] < dil * (kw - 1) + 1:
        kh, kw, pads = 1, 1, [0, 0, 0, 0]
    ceil = int(rng.random() < 0.4)
    ceil &= _ceil_agrees(h, kh, sh, pads[0], pads[2], dil)
    ceil &= _ceil_agrees(w, kw, sw, pads[1], pads[3], dil)
    attrs: dict[str, object] = dict(kernel_shape=[kh, kw], strides=[sh, sw], pads=pads)
    attrs["ceil_mode"] = ceil
    if dil != 1:
        attrs["dilations"] = [dil, dil]
    if op == "AveragePool":
        attrs["count_include_pad"] = int(rng.random() < 0.5)
    g.outputs.append(g.op(op, [x], **attrs))
    return f"{op} c{c} {h}x{w} {attrs}"


def _softmax(g: _Graph) -> str:
    rng = g.rng
    rank = int(_pick(rng, [2, 3, 4]))
    last = int(_pick(rng, [1, 3, 7, 8, 9, 16, 17, 33, 64, 100, 1030, 4099]))
    shape = (*(int(v) for v in rng.integers(1, 6, rank - 1)), last)
    scores = rng.standard_normal(shape) * float(_pick(rng, [1, 10, 60]))
    masked = rng.random(shape) < 0.3
    fill = _pick(rng, [-np.inf, -1e9, -65000.0, -3.0e38])
    if g.dtype == np.float16 and fill != -np.inf:
        fill = -65000.0
    scores[masked] = fill
    if rng.random() < 0.2:
        scores[..., :] = fill  # a fully masked row
        scores[..., 0] = 0
    x = g.input(shape, scores)
    op = _pick(rng, ["Softmax", "Softmax", "Softmax", "Sigmoid", "Exp", "Tanh"])
    if op == "Softmax":
        axis = -1 if rng.random() < 0.8 else int(rng.integers(-rank, rank))
        # attention-like: scores + mask, then softmax. Not in float16: x - 1e4 rounds there
        # (steps of 8), which onnxruntime's CPU provider skips (it runs a float16 Add in
        # float32 between inserted Casts), so scores a few apart differ by orders.
        if rng.random() < 0.3 and g.dtype != np.float16:
            x = g.op("Add", [x, g.const(np.where(rng.random(shape[-1:]) < 0.2, -1e4, 0.0))])
        g.outputs.append(g.op(op, [x], axis=axis))
        return f"{op} axis {axis} {shape} fill {fill}"
    x = g.input(shape, rng.standard_normal(shape) * 30)  # exp/sigmoid across their range
    g.outputs.append(g.op(op, [x]))
    g.inputs.pop(0)
    del g.feeds["x0"]
    return f"{op} {shape}"


def _reduce(g: _Graph) -> str:
    rng = g.rng
    rank = int(_pick(rng, [1, 2, 3, 4]))
    last = int(_pick(rng, [1, 2, 5, 8, 15, 16, 17, 63, 128, 1031, 4099]))
    shape = (*(int(v) for v in rng.integers(1, 7, rank - 1)), last)
    x = g.input(shape)
    op = _pick(rng, ["ReduceMean", "ReduceSum", "ReduceMax", "LayerNormalization"])
    if op == "LayerNormalization":
        axis = -1 if rng.random() < 0.7 else int(rng.integers(-rank, rank))
        norm = shape[axis:]
        ins = [x, g.const(rng.uniform(0.5, 1.5, norm))]
        if rng.random() < 0.7:
            ins.append(g.const(rng.standard_normal(norm) * 0.1))
        g.outputs.append(g.op(op, ins, axis=axis, epsilon=1e-5))
        return f"LayerNorm axis {axis} {shape}"
    axes = [-1] if rng.random() < 0.7 else sorted({int(a) for a in rng.integers(0, rank, 2)})
    keep = int(rng.random() < 0.6)
    if op == "ReduceSum":  # axes an input since opset 13
        out = g.op(op, [x, g.ints(axes)], keepdims=keep)
    else:
        out = g.op(op, [x], axes=axes, keepdims=keep)
    g.outputs.append(out)
    return f"{op} axes {axes} keep {keep} {shape}"


def _gemm(g: _Graph) -> str:
    rng = g.rng
    sizes = [1, 2, 3, 7, 16, 17, 33, 64, 100, 257]  # 257: past oneDNN's blocking
    m, k, n = (int(_pick(rng, sizes)) for _ in range(3))
    if rng.random() < 0.5:
        ta, tb = int(rng.random() < 0.3), int(rng.random() < 0.5)
        a = g.input((k, m) if ta else (m, k))
        b = g.const(rng.standard_normal((n, k) if tb else (k, n)) / np.sqrt(k))
        ins = [a, b]
        if rng.random() < 0.7:
            ins.append(g.const(rng.standard_normal(_pick(rng, [(n,), (1, n), (m, n), (m, 1)]))))
        alpha, beta = float(_pick(rng, [1.0, 0.5])), float(_pick(rng, [1.0, 2.0]))
        g.outputs.append(g.op("Gemm", ins, transA=ta, transB=tb, alpha=alpha, beta=beta))
        return f"Gemm m{m} k{k} n{n} tA{ta} tB{tb} C{len(ins) == 3}"
    batch_a = _pick(rng, [(), (2,), (3, 1), (1, 2)])
    batch_b = _pick(rng, [(), (2,), (1,), (3, 2)])
    if rng.random() < 0.15:  # 1-D operand
        a_shape: tuple[int, ...] = (k,)
    else:
        a_shape = (*batch_a, m, k)
    b_shape = (*batch_b, k, n)
    a = g.input(a_shape)
    b = g.input(b_shape) if rng.random() < 0.5 else g.const(rng.standard_normal(b_shape))
    y = g.op("MatMul", [a, b])
    if rng.random() < 0.4:
        y = g.op("Add", [y, g.const(rng.standard_normal((n,)))])
    g.outputs.append(y)
    return f"MatMul {a_shape} x {b_shape}"


FAMILIES = {
    "conv_chain": _conv_chain,
    "depthwise": _depthwise,
    "pool": _pool,
    "softmax": _softmax,
    "reduce": _reduce,
    "gemm": _gemm,
}
# Families whose ops the emulator runs in fp16 too (accumulating in fp32).
_FP16_FAMILIES = ("softmax", "reduce", "gemm", "pool", "depthwise", "conv_chain")


def make_case(seed: int, family: str | None = None) -> Case:
    rng = np.random.default_rng(seed)
    family = family or str(_pick(rng, sorted(FAMILIES)))
    fp16 = family in _FP16_FAMILIES and rng.random() < 0.2
    g = _Graph(rng, np.float16 if fp16 else np.float32)
    about = FAMILIES[family](g)
    case = Case(seed, family, g.model(), dict(g.feeds), about + (" fp16" if fp16 else ""))
    if family in ("conv_chain", "depthwise") and rng.random() < 0.25:
        case.external = True
        case.about += " external weights"
    if fp16:
        case.rtol, case.atol = 2e-2, 2e-2
    return case


def reference(case: Case) -> list[np.ndarray]:
    """onnxruntime's CPU result (graph optimisations off: the ONNX semantics as written)."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    options.log_severity_level = 3  # errors only
    session = ort.InferenceSession(
        case.model.SerializeToString(), options, providers=["CPUExecutionProvider"]
    )
    return session.run(None, case.inputs)


def compare(case: Case, got: list[np.ndarray], want: list[np.ndarray]) -> str | None:
    """None if they agree: same NaN and infinity places, finite values within tolerance."""
    for i, (a, b) in enumerate(zip(got, want, strict=True)):
        a64, b64 = a.astype(np.float64), b.astype(np.float64)
        if a.shape != b.shape:
            return f"output {i}: shape {a.shape} != {b.shape}"
        nan_a, nan_b = np.isnan(a64), np.isnan(b64)
        if (nan_a != nan_b).any():
            where = np.argwhere(nan_a != nan_b)[0]
            at = tuple(int(v) for v in where)
            return f"output {i}: NaN at {at} differs ({a64[at]} vs {b64[at]})"
        # onnxruntime's MaxPool starts its windows at the lowest float, not -inf: a window
        # of -inf only gives -3.4e38 there, -inf here (and in PyTorch).
        lowest = float(np.finfo(b.dtype).min)
        b64 = np.where((b64 == lowest) & (a64 == -np.inf), -np.inf, b64)
        inf = np.isinf(a64) | np.isinf(b64)
        if (a64[inf] != b64[inf]).any():
            where = np.argwhere(inf & (a64 != b64))[0]
            return f"output {i}: inf at {tuple(where)}: {a64[tuple(where)]} vs {b64[tuple(where)]}"
        ok = ~(nan_a | inf)
        scale = max(1.0, float(np.abs(b64[ok]).max(initial=0.0)))
        err = np.abs(a64[ok] - b64[ok])
        bound = case.atol * scale + case.rtol * np.abs(b64[ok])
        if (err > bound).any():
            worst = int(np.argmax(err - bound))
            flat = np.flatnonzero(ok)[worst]
            index = np.unravel_index(flat, a.shape)
            return (
                f"output {i}: max err {err.max():.3g} at {tuple(int(v) for v in index)}: "
                f"{a64[index]} vs {b64[index]} (scale {scale:.3g})"
            )
    return None


def check_case(emulator: EmulatorOnnx, case: Case, work: Path) -> str | None:
    """Compiles and runs `case` on the emulator; None if it matches onnxruntime, else why not."""
    want = reference(case)
    om = emulator.compile(case.model, work, external_weight=case.external)
    inputs = [case.inputs[i.name] for i in case.model.graph.input]
    got = emulator.run(om, inputs, [(w.shape, w.dtype) for w in want])
    return compare(case, got, want)
