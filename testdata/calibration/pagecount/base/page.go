// Package pagecount splits lists into pages.
package pagecount

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
