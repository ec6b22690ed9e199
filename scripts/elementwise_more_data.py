#!/usr/bin/env python3
"""The constants of tests/elementwise_more.rs: NumPy for most functions, mpmath at 50 digits for
erf, erfc and lgamma. Usage: python3 scripts/elementwise_more_data.py (prints the Rust constants)."""
import math, numpy as np
xs = [-3.5, -1.0, -0.5, -0.0, 0.0, 0.25, 0.5, 0.999, 1.0, 1.5, 2.0, 10.0, 30.0, -30.0, -800.0, 800.0, math.inf, -math.inf, math.nan]
ys = list(reversed(xs))
x = np.array(xs); y = np.array(ys)
def safe(f):
    out = []
    for v in xs:
        try:
            r = f(v)
        except (ValueError, OverflowError):
            r = None
        out.append(r)
    return out
import mpmath
mpmath.mp.dps = 50
def lg(v):
    if math.isnan(v): return math.nan
    if math.isinf(v): return math.inf
    if v <= 0 and v == int(v): return math.inf
    return float(mpmath.log(abs(mpmath.gamma(mpmath.mpf(v))))) if abs(v) < 170 else float(mpmath.loggamma(mpmath.mpf(v)).real)
def mp(f, v):
    if math.isnan(v): return math.nan
    return float(f(mpmath.mpf(v)))
with np.errstate(all='ignore'):
    table = {
        "asinh": np.arcsinh(x), "acosh": np.arccosh(x), "atanh": np.arctanh(x),
        "erf": [mp(mpmath.erf, v) for v in xs],
        "erfc": [mp(mpmath.erfc, v) for v in xs],
        "lgamma": [lg(v) for v in xs],
        "rsqrt": 1/np.sqrt(x), "square": x*x, "to_radians": np.deg2rad(x), "to_degrees": np.rad2deg(x),
        "log_sigmoid": -np.logaddexp(0, -x), "softsign": x/(1+np.abs(x)),
        "selu": 1.0507009873554805*np.where(x > 0, x, 1.6732632423543772*np.expm1(x)),
        "leaky_relu": np.where(x > 0, x, 0.01*x), "elu": np.where(x > 0, x, np.expm1(x)),
        "hardtanh": np.where(np.isnan(x), x, np.clip(x, -1, 1)), "nan_to_num": np.nan_to_num(x, nan=0.0, posinf=99.0, neginf=-99.0),
        "copysign": np.copysign(x, y), "logaddexp": np.logaddexp(x, y), "lerp": x + 0.3*(y - x),
    }
def lit(v):
    v = float(v)
    if math.isnan(v): return "NAN"
    if v == math.inf: return "INF"
    if v == -math.inf: return "-INF"
    return repr(v) if ('.' in repr(v) or 'e' in repr(v)) else repr(v)+".0"
print("// Generated with NumPy", np.__version__, "and mpmath", mpmath.__version__, "(erf, erfc, lgamma at 50 digits).")
print("const XS: [f64; %d] = [%s];" % (len(xs), ", ".join(lit(v) for v in xs)))
for k, v in table.items():
    print("const %s: [f64; %d] = [%s];" % (k.upper(), len(xs), ", ".join(lit(e) for e in v)))
