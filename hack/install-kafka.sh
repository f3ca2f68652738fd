#!/usr/bin/env bash
# Fetches the Kafka broker jars (kafka_2.13 and its runtime dependencies, plus the SLF4J→Log4j2
# binding so the broker's log lines reach a file) from Maven Central into $KAFKA_HOME/lib.
# Idempotent: nothing is fetched when the jars are there. Tests start the broker themselves
# (test/support/kafka-broker.ts) with `java -cp "$KAFKA_HOME/lib/*" kafka.Kafka`.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=lib/common.sh
. "$HERE/lib/common.sh"

if [ -f "$KAFKA_HOME/lib/.complete" ]; then
  echo "[install-kafka] Kafka $KAFKA_VERSION jars cached in $KAFKA_HOME/lib"
  exit 0
fi
command -v mvn >/dev/null || { echo "[install-kafka] mvn is needed (Debian package maven)"; exit 1; }
command -v java >/dev/null || { echo "[install-kafka] java 17+ is needed"; exit 1; }
mkdir -p "$KAFKA_HOME"
cat >"$KAFKA_HOME/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>io.faultline.ci</groupId><artifactId>kafka-runtime</artifactId><version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka_2.13</artifactId><version>$KAFKA_VERSION</version></dependency>
    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-slf4j-impl</artifactId><version>$LOG4J_SLF4J_VERSION</version></dependency>
  </dependencies>
</project>
POM
start=$(date +%s)
rm -rf "$KAFKA_HOME/lib"
mvn -B -q -f "$KAFKA_HOME/pom.xml" \
  org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy-dependencies \
  -DoutputDirectory="$KAFKA_HOME/lib" -DincludeScope=runtime
touch "$KAFKA_HOME/lib/.complete"
echo "[install-kafka] fetched $(find "$KAFKA_HOME/lib" -name '*.jar' | wc -l) jars in $(( $(date +%s) - start )) s into $KAFKA_HOME/lib"
