"""The one C extension: the OpenGotha-compatible pairing's maximum-weight perfect matching.

Everything else about the package is in pyproject.toml.
"""

from setuptools import Extension, setup

setup(ext_modules=[
    Extension("yisai.pairing._perfect_matching", ["src/yisai/pairing/_perfect_matching.c"],
              extra_compile_args=["-O2"]),
])
