#!/usr/bin/env python3
"""Writes examples/data/digits.npz: scikit-learn's handwritten digits (UCI ML digits, 1797 images
of 8x8 pixels with values 0..16, and their labels), for examples/digits_cnn.rs.

Members: `images` uint8 [1797, 8, 8], `labels` int64 [1797]. The example trains on the first
1437 and tests on the last 360 (scikit-learn's data order; the split of the issue's benchmark).
Run from the repository root: python3 scripts/digits_data.py (needs scikit-learn and NumPy).
"""
import numpy as np
from sklearn.datasets import load_digits

d = load_digits()
images = d.images.astype(np.uint8)
assert images.shape == (1797, 8, 8) and images.max() == 16
np.savez_compressed("examples/data/digits.npz", images=images, labels=d.target.astype(np.int64))
print("wrote examples/data/digits.npz:", images.shape, np.bincount(d.target))
