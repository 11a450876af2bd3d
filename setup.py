"""The compiled core of the Dutch engine (transforms/fide/dutch/cmatching.c), built by the
project's own install (``make install``: gcc and Python's headers, nothing downloaded).
Everything else is in pyproject.toml."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("transforms.fide.dutch.cmatching",
                             ["transforms/fide/dutch/cmatching.c"],
                             extra_compile_args=["-O2", "-std=gnu11"])])
