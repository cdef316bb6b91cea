// k8s-validate reads Kubernetes manifests (`helm template` output, several YAML documents) on
// stdin and decodes each into its Kubernetes API type, refusing unknown or misplaced fields and
// values of the wrong type: what `helm lint` does not check. Kinds without a Go type here
// (custom resources such as ServiceMonitor) are named and skipped. Exit 1 on any problem.
//
//	helm template rel deploy/helm/icefront -f … | go run ./tools/deploy/k8s-validate
package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"sigs.k8s.io/yaml"
)

func object(apiVersion, kind string) any {
	switch apiVersion + " " + kind {
	case "apps/v1 Deployment":
		return &appsv1.Deployment{}
	case "v1 Service":
		return &corev1.Service{}
	case "v1 ConfigMap":
		return &corev1.ConfigMap{}
	case "v1 Secret":
		return &corev1.Secret{}
	case "v1 ServiceAccount":
		return &corev1.ServiceAccount{}
	case "policy/v1 PodDisruptionBudget":
		return &policyv1.PodDisruptionBudget{}
	case "autoscaling/v2 HorizontalPodAutoscaler":
		return &autoscalingv2.HorizontalPodAutoscaler{}
	}
	return nil
}

func main() {
	in, err := io.ReadAll(bufio.NewReader(os.Stdin))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	failed := false
	checked := 0
	for _, doc := range bytes.Split(in, []byte("\n---")) {
		if len(bytes.TrimSpace(doc)) == 0 {
			continue
		}
		var head struct {
			APIVersion string `json:"apiVersion"`
			Kind       string `json:"kind"`
			Metadata   struct {
				Name string `json:"name"`
			} `json:"metadata"`
		}
		if err := yaml.Unmarshal(doc, &head); err != nil {
			fmt.Printf("not YAML: %v\n", err)
			failed = true
			continue
		}
		if head.Kind == "" {
			continue // only comments
		}
		name := fmt.Sprintf("%s %s/%s", head.APIVersion, head.Kind, head.Metadata.Name)
		obj := object(head.APIVersion, head.Kind)
		if obj == nil {
			fmt.Printf("skipped %s: no Go type here\n", name)
			continue
		}
		if err := yaml.UnmarshalStrict(doc, obj); err != nil {
			fmt.Printf("invalid %s: %s\n", name, strings.TrimSpace(err.Error()))
			failed = true
			continue
		}
		checked++
		fmt.Printf("valid %s\n", name)
	}
	if checked == 0 {
		fmt.Println("no object checked")
		failed = true
	}
	if failed {
		os.Exit(1)
	}
}
