v[1] = ARGV[1]
