"""The corpus of reduced repro files and its manifest."""
