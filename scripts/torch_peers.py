#!/usr/bin/env python3
"""PyTorch's time (CPU, one thread) for the work of `benches/autograd.rs` and
`benches/network.rs`, on this machine, for the training and network tables of the README and
src/guide/speed.md; with `--transformer`, for the `transformer` group of `benches/autograd.rs` (a
`TransformerEncoderLayer(384, 12, 1536, dropout=0.0, batch_first=True)` over [32, 64, 384]: the
forward under `no_grad`, and a training step: the mean of the squared output, backward, AdamW);
with `--conv`, for the `conv_shapes` group of `benches/conv.rs` (1x1, strided and dilated
layers, forward + backward of the 3x3 layer and of the digits CNN's second layer);
with `--gelu`, for the `gelu_*` groups of `benches/workloads.rs` (gelu,
gelu_tanh, erf, erfc of [360, 32] and [1e6], f32 and f64, the same inputs: [-4, 4) evenly).

Each row is the median of 7 repeats of `timeit` loops of about 0.2 s, in microseconds per call.
Run it right after the benches on a quiet machine: `python3 scripts/torch_peers.py` (one
thread), `python3 scripts/torch_peers.py --threads 2` (the network rows on two threads).
"""
import sys
import timeit

import torch
import torch.nn.functional as F

THREADS = int(sys.argv[sys.argv.index("--threads") + 1]) if "--threads" in sys.argv else 1
torch.set_num_threads(THREADS)
torch.manual_seed(0)


def per_call_us(fn):
    t = timeit.Timer(fn)
    n, _ = t.autorange()
    n = max(1, n)
    runs = sorted(t.repeat(repeat=7, number=n))
    return runs[len(runs) // 2] / n * 1e6


def param(*shape):
    return (torch.randn(*shape) * 0.1).requires_grad_(True)


# The MLP 64-256-256-10 at batch 128.
mlp = [param(256, 64), param(256), param(256, 256), param(256), param(10, 256), param(10)]
xm = torch.randn(128, 64)
ym = torch.randint(0, 10, (128,))


def mlp_forward(x):
    w1, b1, w2, b2, w3, b3 = mlp
    h = F.relu(F.linear(x, w1, b1))
    h = F.relu(F.linear(h, w2, b2))
    return F.linear(h, w3, b3)


# The digits CNN of the issue.
cnn = [param(8, 1, 3, 3), param(8), param(16, 8, 3, 3), param(16), param(32, 64), param(32), param(10, 32), param(10)]


def cnn_forward(x):
    c1, b1, c2, b2, w3, b3, w4, b4 = cnn
    h = F.max_pool2d(F.relu(F.conv2d(x, c1, b1, padding=1)), 2)
    h = F.max_pool2d(F.relu(F.conv2d(h, c2, b2, padding=1)), 2)
    h = F.gelu(F.linear(h.reshape(h.shape[0], 64), w3, b3))
    return F.linear(h, w4, b4)


x360 = torch.randn(360, 1, 8, 8)
x64 = torch.randn(64, 1, 8, 8)
y64 = torch.randint(0, 10, (64,))

opt_mlp = torch.optim.Adam(mlp, lr=1e-3)
opt_cnn = torch.optim.Adam(cnn, lr=1e-3)


def step(opt, forward, x, y):
    opt.zero_grad(set_to_none=True)
    loss = F.cross_entropy(forward(x), y)
    loss.backward()
    opt.step()


def backward_only(forward, x, y):
    loss = F.cross_entropy(forward(x), y)
    loss.backward()


def network_rows():
    """The work of `benches/network.rs`: the digits CNN's forward over [360, 1, 8, 8] stage by
    stage (log_softmax included), pooling over [32, 64, 56, 56], a depthwise 3x3 convolution and
    the large 3x3 convolution of `benches/conv.rs`."""
    c1, b1, c2, b2, w3, b3, w4, b4 = [p.detach() for p in cnn]
    x = x360
    h1 = F.conv2d(x, c1, b1, padding=1)
    r1 = F.relu(h1)
    p1 = F.max_pool2d(r1, 2)
    h2 = F.conv2d(p1, c2, b2, padding=1)
    r2 = F.relu(h2)
    p2 = F.max_pool2d(r2, 2).reshape(360, 64)
    l1 = F.linear(p2, w3, b3)
    g1 = F.gelu(l1)
    l2 = F.linear(g1, w4, b4)

    def forward():
        return F.log_softmax(F.linear(F.gelu(F.linear(F.max_pool2d(F.relu(F.conv2d(
            F.max_pool2d(F.relu(F.conv2d(x, c1, b1, padding=1)), 2), c2, b2, padding=1)), 2).reshape(360, 64),
            w3, b3)), w4, b4), 1)

    big = torch.randn(32, 64, 56, 56)
    xd, wd = torch.randn(8, 64, 56, 56), torch.randn(64, 1, 3, 3)
    xl, wl = torch.randn(8, 64, 56, 56), torch.randn(64, 64, 3, 3)
    return [
        ("cnn360/forward", forward),
        ("cnn360/conv1 [360,1,8,8] 1->8 3x3 pad 1", lambda: F.conv2d(x, c1, b1, padding=1)),
        ("cnn360/relu [360,8,8,8]", lambda: F.relu(h1)),
        ("cnn360/max_pool2d [360,8,8,8]", lambda: F.max_pool2d(r1, 2)),
        ("cnn360/conv2 [360,8,4,4] 8->16 3x3 pad 1", lambda: F.conv2d(p1, c2, b2, padding=1)),
        ("cnn360/relu [360,16,4,4]", lambda: F.relu(h2)),
        ("cnn360/max_pool2d [360,16,4,4]", lambda: F.max_pool2d(r2, 2)),
        ("cnn360/linear [360,64] -> 32", lambda: F.linear(p2, w3, b3)),
        ("cnn360/gelu [360,32]", lambda: F.gelu(l1)),
        ("cnn360/linear [360,32] -> 10", lambda: F.linear(g1, w4, b4)),
        ("cnn360/log_softmax [360,10]", lambda: F.log_softmax(l2, 1)),
        ("pool/max_pool2d 2x2", lambda: F.max_pool2d(big, 2)),
        ("pool/max_pool2d 3x3 stride 2", lambda: F.max_pool2d(big, 3, 2)),
        ("pool/avg_pool2d 2x2", lambda: F.avg_pool2d(big, 2)),
        ("pool/avg_pool2d 3x3 stride 2", lambda: F.avg_pool2d(big, 3, 2)),
        ("conv2d_depthwise [8,64,56,56] 3x3", lambda: F.conv2d(xd, wd, padding=1, groups=64)),
        ("conv2d_resnet_3x3 [8,64,56,56] 64->64", lambda: F.conv2d(xl, wl, padding=1)),
    ]


def gelus():
    print(f"torch {torch.__version__}, {torch.get_num_threads()} thread")
    for dtype in [torch.float32, torch.float64]:
        for shape in [(360, 32), (1_000_000,)]:
            n = 1
            for s in shape:
                n *= s
            x = (torch.arange(n, dtype=dtype) / n * 8 - 4).reshape(shape)
            for name, fn in [
                ("gelu", lambda: F.gelu(x)),
                ("gelu_tanh", lambda: F.gelu(x, approximate="tanh")),
                ("erf", lambda: torch.erf(x)),
                ("erfc", lambda: torch.erfc(x)),
            ]:
                label = f"{name} {str(dtype).removeprefix('torch.')} {list(shape)}"
                print(f"{label:45s} {per_call_us(fn):9.1f} us")


def conv_shapes():
    """The `conv_shapes` group of `benches/conv.rs`: 1x1, strided and dilated layers over
    [8, 64, 56, 56], and forward + backward (the loss the output's sum) of the 3x3 layer with the
    input's or the weights' gradient only, and of the digits CNN's second layer with all."""
    print(f"torch {torch.__version__}, {torch.get_num_threads()} thread(s)")
    x = torch.randn(8, 64, 56, 56)
    w1, w2, w3 = torch.randn(128, 64, 1, 1), torch.randn(128, 64, 3, 3), torch.randn(64, 64, 3, 3)
    xg, wg = x.clone().requires_grad_(True), w3.clone().requires_grad_(True)
    x2, w2s, b2 = (torch.randn(360, 8, 4, 4).requires_grad_(True), torch.randn(16, 8, 3, 3).requires_grad_(True),
                   torch.randn(16).requires_grad_(True))

    def backward(fn, *leaves):
        for leaf in leaves:
            leaf.grad = None
        fn().sum().backward()

    rows = [
        ("1x1 [8,64,56,56] 64->128", lambda: F.conv2d(x, w1)),
        ("stride 2 [8,64,56,56] 64->128 3x3 pad 1", lambda: F.conv2d(x, w2, stride=2, padding=1)),
        ("dilation 2 [8,64,56,56] 64->64 3x3 pad 2", lambda: F.conv2d(x, w3, padding=2, dilation=2)),
    ]
    with torch.no_grad():
        for name, fn in rows:
            print(f"{name:62s} {per_call_us(fn):9.1f} us")
    rows = [
        ("3x3 [8,64,56,56] forward+backward, input gradient", lambda: backward(lambda: F.conv2d(xg, w3, padding=1), xg)),
        ("3x3 [8,64,56,56] forward+backward, weight gradient", lambda: backward(lambda: F.conv2d(x, wg, padding=1), wg)),
        ("digits conv2 [360,8,4,4] 8->16 forward+backward, all gradients",
         lambda: backward(lambda: F.conv2d(x2, w2s, b2, padding=1), x2, w2s, b2)),
    ]
    for name, fn in rows:
        print(f"{name:62s} {per_call_us(fn):9.1f} us")


def transformer():
    print(f"torch {torch.__version__}, {torch.get_num_threads()} thread(s)")
    block = torch.nn.TransformerEncoderLayer(384, 12, 1536, dropout=0.0, batch_first=True)
    x = torch.randn(32, 64, 384)
    opt = torch.optim.AdamW(block.parameters())
    with torch.no_grad():
        block.eval()
        print(f"{'transformer forward [32, 64, 384] (no_grad)':45s} {per_call_us(lambda: block(x)):9.1f} us")
    block.train()

    def train_step():
        opt.zero_grad()
        block(x).square().mean().backward()
        opt.step()

    print(f"{'transformer train step (AdamW) [32, 64, 384]':45s} {per_call_us(train_step):9.1f} us")


def main():
    print(f"torch {torch.__version__}, {torch.get_num_threads()} thread(s)")
    with torch.no_grad():
        for name, fn in network_rows():
            print(f"{name:45s} {per_call_us(fn):9.1f} us")
    if THREADS != 1:
        return
    with torch.no_grad():
        rows = [
            ("mlp forward [128, 64] (no_grad)", lambda: mlp_forward(xm)),
            ("cnn forward [360, 1, 8, 8] (no_grad)", lambda: cnn_forward(x360)),
        ]
        for name, fn in rows:
            print(f"{name:45s} {per_call_us(fn):9.1f} us")
    rows = [
        ("mlp forward+loss [128] (grad mode)", lambda: F.cross_entropy(mlp_forward(xm), ym)),
        ("mlp forward+backward [128]", lambda: backward_only(mlp_forward, xm, ym)),
        ("mlp train step (Adam) [128]", lambda: step(opt_mlp, mlp_forward, xm, ym)),
        ("cnn forward+loss [64] (grad mode)", lambda: F.cross_entropy(cnn_forward(x64), y64)),
        ("cnn forward+backward [64]", lambda: backward_only(cnn_forward, x64, y64)),
        ("cnn train step (Adam) [64]", lambda: step(opt_cnn, cnn_forward, x64, y64)),
    ]
    for name, fn in rows:
        print(f"{name:45s} {per_call_us(fn):9.1f} us")


if __name__ == "__main__":
    if "--gelu" in sys.argv[1:]:
        gelus()
    elif "--transformer" in sys.argv[1:]:
        transformer()
    elif "--conv" in sys.argv[1:]:
        conv_shapes()
    else:
        main()
