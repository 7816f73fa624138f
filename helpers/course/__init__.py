"""The course's machinery: figure style, widgets, exercises, tables, the ledger, the environment."""
