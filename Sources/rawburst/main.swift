print("rawburst")
