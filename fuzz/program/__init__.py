"""The program: its IR, the construct families, the Hypothesis strategies that draw it, the renderer,
features and the generator's entry point."""
