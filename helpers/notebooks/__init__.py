"""One module per notebook: its figures, widgets, constants and exercises (nbNN_<notebook>.py)."""
