"""Measure families. Each module holds numeric kernels; registry.py names them."""
