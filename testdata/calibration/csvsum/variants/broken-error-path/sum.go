// Package csvsum adds up a column of a CSV file.
package csvsum

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Sum adds up column col (0-based) of every row of r, skipping a header
// row when header is set; an empty cell counts as zero.
func Sum(r io.Reader, col int, header bool) (float64, error) {
	if col < 0 {
		return 0, errors.New("csvsum: column must not be negative")
	}
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	rows, err := cr.ReadAll()
	if err != nil {
		return 0, fmt.Errorf("csvsum: %w", err)
	}
	total := 0.0
	for i, row := range rows {
		if i == 0 && header {
			continue
		}
		cell := strings.TrimSpace(row[col])
		if cell == "" {
			continue
		}
		v, err := strconv.ParseFloat(cell, 64)
		if err != nil {
			return 0, fmt.Errorf("csvsum: line %d: not a number: %q", i+1, row[col])
		}
		total += v
	}
	return total, nil
}
