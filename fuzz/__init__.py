"""Program generator, reducer, campaigns and the ``ngb-fuzz`` command line."""
