from shapes import Circle, total_area

print(total_area([Circle(1.0), Circle(2.0)]))
