{{/* Name of the chart's objects: "faultline" unless overridden. */}}
{{- define "faultline.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- default "faultline" .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "faultline.labels" -}}
app.kubernetes.io/name: {{ default "faultline" .Values.nameOverride }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: faultline
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{- end -}}

{{- define "faultline.selectorLabels" -}}
app.kubernetes.io/name: {{ default "faultline" .Values.nameOverride }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: server
{{- end -}}

{{- define "faultline.serviceAccountName" -}}
{{- default "faultline-operator" .Values.serviceAccount.name -}}
{{- end -}}

{{- define "faultline.apiKeySecret" -}}
{{- if .Values.apiKey.existingSecret -}}
{{- .Values.apiKey.existingSecret -}}
{{- else -}}
{{- printf "%s-api-key" (include "faultline.fullname" .) -}}
{{- end -}}
{{- end -}}

{{- define "faultline.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}

{{/* Operator rules on namespaced resources (operator.md §13); a ClusterRole or a Role per namespace. */}}
{{- define "faultline.namespacedRules" -}}
- apiGroups: [health.faultline.io]
  resources: [suppressions, workloadweights]
  verbs: [get, list, watch, patch, update]
- apiGroups: [health.faultline.io]
  resources: [healthactions]
  verbs: [get, list, watch, create, patch, update, delete]
- apiGroups: [health.faultline.io]
  resources: [suppressions/status, workloadweights/status, healthactions/status]
  verbs: [get, patch, update]
- apiGroups: [health.faultline.io]
  resources: [suppressions/finalizers, healthactions/finalizers]
  verbs: [update]
- apiGroups: [apps]
  resources: [deployments]
  verbs: [get, list, watch, patch]
- apiGroups: [apps]
  resources: [deployments/scale]
  verbs: [get, update, patch]
- apiGroups: [autoscaling]
  resources: [horizontalpodautoscalers]
  verbs: [get, list, watch]
{{- end -}}

{{/* Rules that exist only at cluster scope. */}}
{{- define "faultline.clusterRules" -}}
- apiGroups: [""]
  resources: [namespaces]
  verbs: [get, list, watch]
- apiGroups: [events.k8s.io]
  resources: [events]
  verbs: [create, patch]
{{- end -}}
