module filter-expr/scripts/go-unicode

go 1.23
