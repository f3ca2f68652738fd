{{/*
The Faultline pod (api-server + operator, operator.md §14), shared by the Deployment
(standalone) and the StatefulSet (cluster mode). Its data volume: the claim (standalone), an
emptyDir without persistence, or, in cluster mode, each replica's own claim from the
StatefulSet's volumeClaimTemplates.
*/}}
{{- define "faultline.podTemplate" -}}
metadata:
  labels:
    {{- include "faultline.selectorLabels" . | nindent 4 }}
  annotations:
    checksum/config: {{ include (print $.Template.BasePath "/configmap.yaml") . | sha256sum }}
spec:
  serviceAccountName: {{ include "faultline.serviceAccountName" . }}
  # Only the operator container gets Kubernetes credentials (projected volume below).
  automountServiceAccountToken: false
  terminationGracePeriodSeconds: 30
  {{- with .Values.priorityClassName }}
  priorityClassName: {{ . }}
  {{- end }}
  securityContext:
    {{- toYaml .Values.podSecurityContext | nindent 4 }}
  containers:
    - name: api-server
      image: {{ include "faultline.image" . }}
      imagePullPolicy: {{ .Values.image.pullPolicy }}
      command: [node, dist/api-server/src/main.js]
      ports:
        - {name: http, containerPort: 8080, protocol: TCP}
        - {name: otlp, containerPort: 4317, protocol: TCP}
        - {name: otlp-http, containerPort: 4318, protocol: TCP}
        - {name: statsd, containerPort: 8125, protocol: UDP}
        - {name: grpc, containerPort: 9090, protocol: TCP}
        - {name: dashboard, containerPort: 8081, protocol: TCP}
      env:
        - name: SVC_API_KEY
          valueFrom:
            secretKeyRef: {name: {{ include "faultline.apiKeySecret" . }}, key: api-key}
        - {name: SVC_EDITION, value: {{ .Values.edition }}}
        - {name: SVC_CONFIG, value: /etc/faultline/config.yaml}
        - {name: SVC_DATA_DIR, value: /var/lib/faultline}
        - {name: NODE_ENV, value: production}
        # V8: heap limit and young generation for the pod's limit (docs/memory.md, "Sizing the pod");
        # glibc: buffers over 128 KB are mmapped and given back when freed
        - {name: NODE_OPTIONS, value: --max-old-space-size=2560 --max-semi-space-size=64 --expose-gc}
        - {name: MALLOC_MMAP_THRESHOLD_, value: "131072"}
      startupProbe:
        httpGet: {path: /api/v2/health, port: http}
        periodSeconds: 2
        failureThreshold: 30
      livenessProbe:
        httpGet: {path: /api/v2/health, port: http}
        periodSeconds: 15
        failureThreshold: 3
      readinessProbe:
        httpGet: {path: /api/v2/ready, port: http}
        periodSeconds: 5
      resources:
        {{- toYaml .Values.resources.apiServer | nindent 8 }}
      securityContext:
        {{- toYaml .Values.securityContext | nindent 8 }}
      volumeMounts:
        - {name: data, mountPath: /var/lib/faultline}
        - {name: config, mountPath: /etc/faultline, readOnly: true}
        - {name: tmp, mountPath: /tmp}
    - name: operator
      image: {{ include "faultline.image" . }}
      imagePullPolicy: {{ .Values.image.pullPolicy }}
      command: [node, dist/operator/src/main.js]
      ports:
        - {name: ops, containerPort: 8082, protocol: TCP}
      env:
        - name: SVC_API_KEY
          valueFrom:
            secretKeyRef: {name: {{ include "faultline.apiKeySecret" . }}, key: api-key}
        - {name: SVC_CONFIG, value: /etc/faultline/config.yaml}
        - {name: FAULTLINE_ENGINE_URL, value: "http://127.0.0.1:8080/api/v2"}
        - name: POD_NAME
          valueFrom:
            fieldRef: {fieldPath: metadata.name}
        - name: POD_NAMESPACE
          valueFrom:
            fieldRef: {fieldPath: metadata.namespace}
      startupProbe:
        httpGet: {path: /healthz, port: ops}
        periodSeconds: 2
        failureThreshold: 15
      livenessProbe:
        httpGet: {path: /healthz, port: ops}
        periodSeconds: 15
        failureThreshold: 3
      # No readinessProbe on purpose (operator.md §14).
      resources:
        {{- toYaml .Values.resources.operator | nindent 8 }}
      securityContext:
        {{- toYaml .Values.securityContext | nindent 8 }}
      volumeMounts:
        - {name: config, mountPath: /etc/faultline, readOnly: true}
        - {name: tmp, mountPath: /tmp}
        - {name: kube-api-access, mountPath: /var/run/secrets/kubernetes.io/serviceaccount, readOnly: true}
  volumes:
    {{- if not .Values.persistence.enabled }}
    - name: data
      emptyDir: {}
    {{- else if not .Values.cluster.enabled }}
    - name: data
      persistentVolumeClaim:
        claimName: {{ default (printf "%s-data" (include "faultline.fullname" .)) .Values.persistence.existingClaim }}
    {{- end }}
    - name: config
      configMap:
        name: {{ include "faultline.fullname" . }}-config
    - name: tmp
      emptyDir: {}
    - name: kube-api-access
      projected:
        defaultMode: 0444
        sources:
          - serviceAccountToken:
              path: token
              expirationSeconds: 3607
          - configMap:
              name: kube-root-ca.crt
              items:
                - {key: ca.crt, path: ca.crt}
          - downwardAPI:
              items:
                - path: namespace
                  fieldRef: {fieldPath: metadata.namespace}
  {{- with .Values.nodeSelector }}
  nodeSelector:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with .Values.tolerations }}
  tolerations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with .Values.affinity }}
  affinity:
    {{- toYaml . | nindent 4 }}
  {{- end }}
{{- end -}}
