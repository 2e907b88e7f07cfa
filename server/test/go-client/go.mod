module filterserver/goclient

go 1.23

require github.com/hashicorp/nomad/api v0.0.0-20260821123358-aa026cc99cfb

require (
	github.com/go-viper/mapstructure/v2 v2.5.0 // indirect
	github.com/gorilla/websocket v1.5.3 // indirect
	github.com/hashicorp/cronexpr v1.1.3 // indirect
	github.com/hashicorp/go-cleanhttp v0.5.2 // indirect
	github.com/hashicorp/go-rootcerts v1.0.2 // indirect
	github.com/mitchellh/go-homedir v1.1.0 // indirect
)

// The trees prepare.sh extracts from the mirrors (git-ignored); vendor/ holds what the build reads.
replace (
	github.com/go-viper/mapstructure/v2 => ./.modules/mapstructure
	github.com/gorilla/websocket => ./.modules/websocket
	github.com/hashicorp/cronexpr => ./.modules/cronexpr
	github.com/hashicorp/go-cleanhttp => ./.modules/go-cleanhttp
	github.com/hashicorp/go-rootcerts => ./.modules/go-rootcerts
	github.com/hashicorp/nomad/api => ./.modules/nomad-api
	github.com/mitchellh/go-homedir => ./.modules/go-homedir
)
