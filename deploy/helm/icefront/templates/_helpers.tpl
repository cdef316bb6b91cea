{{/* Names and labels, as `helm create` spells them. */}}
{{- define "icefront.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "icefront.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "icefront.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "icefront.selectorLabels" -}}
app.kubernetes.io/name: {{ include "icefront.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "icefront.labels" -}}
helm.sh/chart: {{ include "icefront.chart" . }}
{{ include "icefront.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{- define "icefront.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "icefront.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* The Secret holding planning.token-secret: the operator's, or the one this chart creates. */}}
{{- define "icefront.tokenSecretName" -}}
{{- if .Values.tokenSecret.existingSecret }}
{{- .Values.tokenSecret.existingSecret }}
{{- else if .Values.tokenSecret.value }}
{{- printf "%s-token" (include "icefront.fullname" .) | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- fail "tokenSecret: set tokenSecret.existingSecret (a Secret you manage) or tokenSecret.value (the chart creates the Secret): every replica must sign plan tasks with the same planning.token-secret" }}
{{- end }}
{{- end }}

{{/* The shutdown timing, checked: SIGKILL must not come before the drain is over. */}}
{{- define "icefront.terminationGracePeriodSeconds" -}}
{{- $s := .Values.shutdown }}
{{- $needed := add (int $s.preStopSleepSeconds) (int $s.drainSeconds) }}
{{- if kindIs "invalid" $s.terminationGracePeriodSeconds }}
{{- add $needed (int $s.marginSeconds) }}
{{- else if le (int $s.terminationGracePeriodSeconds) $needed }}
{{- fail (printf "shutdown.terminationGracePeriodSeconds (%d) must exceed shutdown.preStopSleepSeconds + shutdown.drainSeconds (%d): Kubernetes would kill Icefront before its drain ends" (int $s.terminationGracePeriodSeconds) $needed) }}
{{- else }}
{{- int $s.terminationGracePeriodSeconds }}
{{- end }}
{{- end }}

{{/*
Icefront's config file: .Values.config, with server.shutdown-grace-ms from shutdown.drainSeconds
and planning.token-secret from the environment variable the Secret fills.
*/}}
{{- define "icefront.config" -}}
{{- $config := deepCopy (.Values.config | default dict) }}
{{- if not $config.catalogs }}
{{- fail "config.catalogs: name at least one catalog (docs/configuration.md), e.g. --set config.catalogs.lake.type=rest --set config.catalogs.lake.uri=https://…" }}
{{- end }}
{{- $server := get $config "server" | default dict }}
{{- if hasKey $server "shutdown-grace-ms" }}
{{- fail "config.server.shutdown-grace-ms: set shutdown.drainSeconds instead (the chart derives the grace period and terminationGracePeriodSeconds from it)" }}
{{- end }}
{{- $_ := set $server "shutdown-grace-ms" (mul (int .Values.shutdown.drainSeconds) 1000) }}
{{- if .Values.tls.existingSecret }}
{{- if hasKey $server "tls" }}
{{- fail "config.server.tls: set tls.existingSecret instead (the chart mounts the Secret and writes server.tls)" }}
{{- end }}
{{- $tls := dict "cert-file" "/etc/icefront-tls/tls.crt" "key-file" "/etc/icefront-tls/tls.key" }}
{{- if .Values.tls.clientCertificates }}
{{- $_ := set $tls "ca-file" "/etc/icefront-tls/ca.crt" }}
{{- end }}
{{- $_ := set $server "tls" $tls }}
{{- end }}
{{- $_ := set $config "server" $server }}
{{- $planning := get $config "planning" | default dict }}
{{- if hasKey $planning "token-secret" }}
{{- fail "config.planning.token-secret: set tokenSecret instead (the key comes from a Secret, through ICEFRONT_TOKEN_SECRET)" }}
{{- end }}
{{- $_ := set $planning "token-secret" "${ICEFRONT_TOKEN_SECRET}" }}
{{- $_ := set $config "planning" $planning }}
{{- toYaml $config }}
{{- end }}
