"""The words of `helpers.check` in each translated language: VERDICTS and HINTS (see ../languages.py)."""
