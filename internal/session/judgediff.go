package session

import "github.com/tribunal-cc/tribunal/internal/judging"

// LoadJury loads the judge configuration that `run` would use
// (judging.Load). Its error is a *ConfigError.
func LoadJury(opts judging.Options, d Deps) (*judging.Jury, error) {
	j, err := judging.Load(opts, d.withDefaults().Env)
	if err != nil {
		return nil, err
	}
	return j, nil
}
