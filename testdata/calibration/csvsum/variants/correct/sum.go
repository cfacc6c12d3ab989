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
		return 0, errors.New("csvsum: negative column")
	}
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	var total float64
	for first := true; ; first = false {
		row, err := cr.Read()
		if err == io.EOF {
			return total, nil
		}
		if err != nil {
			return 0, fmt.Errorf("csvsum: %w", err)
		}
		line, _ := cr.FieldPos(0)
		if first && header {
			continue
		}
		if col >= len(row) {
			return 0, fmt.Errorf("csvsum: line %d has no column %d", line, col)
		}
		cell := strings.TrimSpace(row[col])
		if cell == "" {
			continue
		}
		v, err := strconv.ParseFloat(cell, 64)
		if err != nil {
			return 0, fmt.Errorf("csvsum: line %d: %w", line, err)
		}
		total += v
	}
}
