// Prints the hashes OpenKruise gives a pod template (JSON on stdin), computed with the Go types it
// uses: the CloneSet/Advanced StatefulSet revision hash (FNV-1 over the data patch, collision count 0)
// and the Advanced DaemonSet ComputeHash (FNV-1a over a spew dump, no collision count). Built and run
// by scripts/openkruise-hashes.sh; docs/design/takeover.md §2.
package main

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"strconv"

	"github.com/davecgh/go-spew/spew"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/rand"
)

func main() {
	var t corev1.PodTemplateSpec
	if err := json.NewDecoder(os.Stdin).Decode(&t); err != nil { panic(err) }
	// CloneSet/ASTS: template through Go struct JSON, then a map round trip (sorted keys) as getPatch does.
	b, _ := json.Marshal(t)
	var raw map[string]interface{}
	_ = json.Unmarshal(b, &raw)
	raw["$patch"] = "replace"
	patch, _ := json.Marshal(map[string]interface{}{"spec": map[string]interface{}{"template": raw}})
	hf := fnv.New32()
	hf.Write(patch)
	hf.Write([]byte(strconv.FormatInt(0, 10)))
	fmt.Println("revision-hash", rand.SafeEncodeString(fmt.Sprint(hf.Sum32())))
	fmt.Println("patch", string(patch))
	// ADS: controller.ComputeHash(&template, nil) = FNV-1a over a spew dump.
	h := fnv.New32a()
	printer := spew.ConfigState{Indent: " ", SortKeys: true, DisableMethods: true, SpewKeys: true}
	printer.Fprintf(h, "%#v", t)
	fmt.Println("compute-hash", rand.SafeEncodeString(fmt.Sprint(h.Sum32())))
}
