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
		line := i + 1
		if len(row) <= col {
			return 0, fmt.Errorf("csvsum: line %d: too few columns", line)
		}
		if strings.TrimSpace(row[col]) == "" {
			continue
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(row[col]), 64)
		if err != nil {
			return 0, fmt.Errorf("csvsum: line %d: not a number: %q", line, row[col])
		}
		total += v
	}
	return total, nil
}
