"""PyTorch's side of `benches/layers.rs`: the same cases on the same shapes (random normal data),
each the minimum of repeated runs over one second (at least 5, at most 2,000), in µs, one line a
case in the bench's order. `--threads N` (default 1) sets torch's intra-op threads.
"""
import argparse
import time

import torch
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--threads", type=int, default=1)
args = ap.parse_args()
torch.set_num_threads(args.threads)
torch.manual_seed(1)
def tm(name, f):
    f()
    best = 1e9; t0 = time.perf_counter(); n = 0
    while (time.perf_counter() - t0 < 1.0 or n < 5) and n < 2000:
        t = time.perf_counter(); f(); best = min(best, time.perf_counter() - t); n += 1
    print(f"{name:50} {best*1e6:10.1f} us")
x = torch.randn(2048, 384); w = torch.randn(384); b = torch.randn(384)
with torch.no_grad():
    tm("layer_norm [2048,384] fwd", lambda: F.layer_norm(x, (384,), w, b, 1e-5))
def ln_bwd():
    xv, wv, bv = x.clone().requires_grad_(), w.clone().requires_grad_(), b.clone().requires_grad_()
    F.layer_norm(xv, (384,), wv, bv, 1e-5).sum().backward()
tm("layer_norm [2048,384] fwd+bwd", ln_bwd)
xb = torch.randn(32, 64, 28, 28); wc = torch.randn(64); bc = torch.randn(64)
with torch.no_grad():
    tm("batch_norm train [32,64,28,28] fwd", lambda: F.batch_norm(xb, None, None, wc, bc, True, 0.1, 1e-5))
def bn_bwd():
    xv, wv, bv = xb.clone().requires_grad_(), wc.clone().requires_grad_(), bc.clone().requires_grad_()
    F.batch_norm(xv, None, None, wv, bv, True, 0.1, 1e-5).sum().backward()
tm("batch_norm train [32,64,28,28] fwd+bwd", bn_bwd)
xs = torch.randn(32, 12, 64, 64)
with torch.no_grad():
    tm("softmax [32,12,64,64] -1 fwd", lambda: xs.softmax(-1))
def sm_bwd():
    xv = xs.clone().requires_grad_()
    (xv.softmax(-1) * xs).sum().backward()
tm("softmax [32,12,64,64] -1 fwd+bwd", sm_bwd)
xl = torch.randn(4096, 1000); tg = torch.tensor([(i * 37) % 1000 for i in range(4096)])
with torch.no_grad():
    tm("log_softmax [4096,1000] fwd", lambda: xl.log_softmax(1))
def ce():
    xv = xl.clone().requires_grad_()
    F.cross_entropy(xv, tg).backward()
tm("cross_entropy [4096,1000] fwd+bwd", ce)
emb = torch.randn(30522, 384); ids = torch.tensor([(i * 7919) % 30522 for i in range(2048)]).reshape(32, 64)
with torch.no_grad():
    tm("embedding [32,64] of [30522,384] fwd", lambda: F.embedding(ids, emb))
def em():
    ev = emb.clone().requires_grad_()
    F.embedding(ids, ev).sum().backward()
tm("embedding [32,64] of [30522,384] fwd+bwd", em)
e = torch.randn(1000000)
with torch.no_grad():
    tm("sigmoid [1e6]", lambda: e.sigmoid())
    tm("tanh [1e6]", lambda: e.tanh())
    tm("silu [1e6]", lambda: F.silu(e))
    tm("exp [1e6]", lambda: e.exp())
    tm("relu [1e6]", lambda: e.relu())
def sg():
    v = e.clone().requires_grad_(); v.sigmoid().sum().backward()
tm("sigmoid [1e6] fwd+bwd", sg)
def th():
    v = e.clone().requires_grad_(); v.tanh().sum().backward()
tm("tanh [1e6] fwd+bwd", th)
r = torch.randn(32, 64, 384)
with torch.no_grad():
    tm("sum -1 [32,64,384]", lambda: r.sum(-1))
    tm("sum 1 [32,64,384]", lambda: r.sum(1))
    tm("mean all [32,64,384]", lambda: r.mean())
    tm("var -1 [32,64,384]", lambda: r.var(-1))
    tm("max -1 [32,64,384]", lambda: r.amax(-1))
    tm("argmax -1 [32,64,384]", lambda: r.argmax(-1))
    tm("cumsum -1 [32,64,384]", lambda: r.cumsum(-1))
    q = torch.randn(32, 12, 64, 64)
    tm("bmm [32,12,64,64]@[32,12,64,64]", lambda: q @ q)
    tm("transpose(1,2).contiguous [32,12,64,64]", lambda: q.transpose(1, 2).contiguous())
    s = torch.randn(1000, 1000)
    tm("sort -1 [1000,1000]", lambda: s.sort(-1))
    tm("topk 10 -1 [1000,1000]", lambda: s.topk(10, -1))
    xc = torch.randn(16, 64, 16, 16); wt = torch.randn(64, 32, 4, 4)
    tm("conv_transpose2d [16,64,16,16] 64->32 k4 s2 p1", lambda: F.conv_transpose2d(xc, wt, None, 2, 1))
    xa = torch.randn(32, 512, 7, 7)
    tm("adaptive_avg_pool2d [32,512,7,7] -> 1", lambda: F.adaptive_avg_pool2d(xa, 1))
    xp = torch.randn(32, 64, 56, 56)
    tm("avg_pool2d 2 [32,64,56,56]", lambda: F.avg_pool2d(xp, 2))
def mp():
    v = xp.clone().requires_grad_(); F.max_pool2d(v, 2).sum().backward()
tm("max_pool2d 2 [32,64,56,56] fwd+bwd", mp)
with torch.no_grad():
    ob = torch.ones(64, 1, 1)
    tm("add bcast [32,64,56,56]+[64,1,1]", lambda: xp + ob)
