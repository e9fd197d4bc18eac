r
