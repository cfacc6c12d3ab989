// Package pagecount splits lists into pages.
package pagecount

import "errors"

// Page returns page number n (0-based) of items, size items per page; an
// empty slice past the end.
func Page(items []string, size, n int) []string {
	if size <= 0 || n < 0 {
		return nil
	}
	start := n * size
	if start >= len(items) {
		return []string{}
	}
	end := start + size
	if end > len(items) {
		end = len(items)
	}
	return items[start:end]
}

// PageCount is the number of pages needed for total items, size per page.
func PageCount(total, size int) (int, error) {
	if size <= 0 {
		return 0, errors.New("page size must be positive")
	}
	if total < 0 {
		return 0, errors.New("total must not be negative")
	}
	return total / size, nil
}
