def entry(:
