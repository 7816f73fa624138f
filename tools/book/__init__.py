"""The course as a static web book: `make book` (python tools/book/build.py) writes build/book/."""
