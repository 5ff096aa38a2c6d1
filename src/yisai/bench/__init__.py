"""Benchmarks: seeded workloads shared by `yisai bench` and docs/BENCHMARKS.md."""
