/*
 * Copyright 2026-present the original author or authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package dev.triage.quickstart;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import feign.Feign;
import io.github.resilience4j.core.EventConsumer;
import org.junit.jupiter.api.Test;

/**
 * Builds a throwaway application from the README's Quick start for this build's Spring Boot line: its pom is
 * Spring Boot's parent plus the README's Maven snippet, word for word; its code and YAML are the Quick start's (the
 * ones {@code QuickStartTests} runs). A nested Maven compiles it and lists what it resolved, with a local
 * repository that holds Triage's artifacts as this reactor built them (the invoker plugin's install) and reads
 * everything else from the user's local repository, then Maven Central. The application must build and resolve
 * the Resilience4j and Feign versions this line is tested with, each one version only, and no Kotlin.
 */
class QuickStartBuildIT {

	private static final Path ROOT = Path.of(System.getProperty("triage.root"));

	private static final Path TARGET = Path.of(System.getProperty("triage.target"));

	private static final String HEADING = System.getProperty("triage.quickstart.heading");

	private static final String BOOT_VERSION = System.getProperty("triage.quickstart.boot-version");

	private static final String STARTER = System.getProperty("triage.quickstart.starter");

	private static final String BOM = System.getProperty("triage.quickstart.bom");

	@Test
	void theReadmeQuickStartBuildsWithTheVersionsThisLineIsTestedWith() throws Exception {
		String snippet = pomSnippet(Files.readString(ROOT.resolve("README.md")), HEADING);
		assertThat(snippet).as("the README's Maven snippet under '%s'", HEADING)
			.contains("<artifactId>" + BOM + "</artifactId>")
			.contains("<artifactId>" + STARTER + "</artifactId>");
		Path app = application(snippet);
		Path deps = app.resolve("target").resolve("dependencies.txt");

		Process maven = new ProcessBuilder(mavenCommand(app, deps)).directory(app.toFile())
			.redirectErrorStream(true)
			.redirectOutput(app.resolve("build.log").toFile())
			.start();
		assertThat(maven.waitFor(10, TimeUnit.MINUTES)).as("the nested build finished").isTrue();
		String log = Files.readString(app.resolve("build.log"));
		assertThat(maven.exitValue()).as("the nested build of the README's Quick start:%n%s", tail(log)).isZero();

		List<String> resolved = Files.readAllLines(deps);
		assertThat(resolved).anyMatch((line) -> line.contains("dev.triage:" + STARTER + ":jar:0.1.0-SNAPSHOT"));
		assertThat(versions(resolved, "io.github.resilience4j")).as("Resilience4j versions resolved")
			.containsOnly(versionOf(EventConsumer.class, "resilience4j-core"));
		assertThat(versions(resolved, "io.github.openfeign")).as("Feign versions resolved")
			.containsOnly(versionOf(Feign.class, "feign-core"));
		assertThat(resolved).as("no Kotlin").noneMatch((line) -> line.contains("org.jetbrains.kotlin"));
	}

	/**
	 * The {@code xml} code blocks under the line's heading within the Quick start section.
	 */
	static String pomSnippet(String readme, String heading) {
		int quickStart = readme.indexOf("\n## Quick start\n");
		assertThat(quickStart).as("the README has a '## Quick start' section").isNotNegative();
		int end = readme.indexOf("\n## ", quickStart + 1);
		String section = readme.substring(quickStart, (end < 0) ? readme.length() : end);
		int start = section.indexOf("\n" + heading + "\n");
		assertThat(start).as("the Quick start has '%s'", heading).isNotNegative();
		int next = section.indexOf("\n### ", start + 1);
		String line = section.substring(start, (next < 0) ? section.length() : next);
		StringBuilder xml = new StringBuilder();
		Matcher blocks = Pattern.compile("```xml\n(.*?)```", Pattern.DOTALL).matcher(line);
		while (blocks.find()) {
			xml.append(blocks.group(1));
		}
		return xml.toString();
	}

	private static Path application(String snippet) throws IOException {
		Path app = TARGET.resolve("quickstart-app");
		Path sources = app.resolve("src/main/java/dev/triage/quickstart");
		Files.createDirectories(sources);
		Files.createDirectories(app.resolve("src/main/resources"));
		Files.createDirectories(app.resolve("target"));
		Path quickStart = ROOT.resolve("autoconfigure/src/test/java/dev/triage/quickstart");
		for (String source : List.of("ShopApplication.java", "InventoryClient.java")) {
			Files.copy(quickStart.resolve(source), sources.resolve(source),
					StandardCopyOption.REPLACE_EXISTING);
		}
		Files.copy(ROOT.resolve("autoconfigure/src/test/resources/quickstart/application.yml"),
				app.resolve("src/main/resources/application.yml"), StandardCopyOption.REPLACE_EXISTING);
		Files.writeString(app.resolve("pom.xml"), """
				<?xml version="1.0" encoding="UTF-8"?>
				<project xmlns="http://maven.apache.org/POM/4.0.0"
				         xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
				         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">
				  <modelVersion>4.0.0</modelVersion>
				  <parent>
				    <groupId>org.springframework.boot</groupId>
				    <artifactId>spring-boot-starter-parent</artifactId>
				    <version>%s</version>
				    <relativePath/>
				  </parent>
				  <groupId>com.example</groupId>
				  <artifactId>shop</artifactId>
				  <version>1.0.0</version>
				  <properties>
				    <java.version>17</java.version>
				  </properties>
				%s
				</project>
				""".formatted(BOOT_VERSION, snippet), StandardCharsets.UTF_8);
		// Triage's artifacts from this reactor (installed into it-repo); the rest from the user's local repository
		// read as a remote one (releases only, so a stale Triage snapshot there is never seen), then Maven Central
		String userRepository = Path.of(System.getProperty("triage.user-repository")).toUri().toString();
		Files.writeString(app.resolve("settings.xml"), """
				<settings>
				  <profiles>
				    <profile>
				      <id>user-repository</id>
				      <repositories>
				        <repository>
				          <id>user-repository</id>
				          <url>%1$s</url>
				          <snapshots><enabled>false</enabled></snapshots>
				        </repository>
				      </repositories>
				      <pluginRepositories>
				        <pluginRepository>
				          <id>user-repository</id>
				          <url>%1$s</url>
				          <snapshots><enabled>false</enabled></snapshots>
				        </pluginRepository>
				      </pluginRepositories>
				    </profile>
				  </profiles>
				  <activeProfiles>
				    <activeProfile>user-repository</activeProfile>
				  </activeProfiles>
				</settings>
				""".formatted(userRepository), StandardCharsets.UTF_8);
		return app;
	}

	private static List<String> mavenCommand(Path app, Path deps) {
		Path home = Path.of(System.getProperty("maven.home"));
		String mvn = File.separatorChar == '\\' ? "mvn.cmd" : "mvn";
		return List.of(home.resolve("bin").resolve(mvn).toString(), "-B", "-ntp", "-s",
				app.resolve("settings.xml").toString(),
				"-Dmaven.repo.local=" + Path.of(System.getProperty("triage.it-repository")).toAbsolutePath(),
				"compile", "org.apache.maven.plugins:maven-dependency-plugin:list",
				"-DoutputFile=" + deps.toAbsolutePath(), "-DincludeScope=runtime");
	}

	/**
	 * The distinct versions of a group's artifacts in {@code dependency:list} output.
	 */
	private static List<String> versions(List<String> resolved, String group) {
		List<String> versions = new ArrayList<>();
		Pattern artifact = Pattern.compile("^\\s*" + Pattern.quote(group) + ":[^:]+:jar:([^:]+):");
		for (String line : resolved) {
			Matcher matcher = artifact.matcher(line);
			if (matcher.find() && !versions.contains(matcher.group(1))) {
				versions.add(matcher.group(1));
			}
		}
		assertThat(versions).as("%s artifacts resolved", group).isNotEmpty();
		return versions;
	}

	/**
	 * The version of the jar a class of this line's own test classpath came from.
	 */
	private static String versionOf(Class<?> type, String artifactId) throws Exception {
		String jar = Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).getFileName().toString();
		assertThat(jar).startsWith(artifactId + "-").endsWith(".jar");
		return jar.substring(artifactId.length() + 1, jar.length() - ".jar".length());
	}

	private static String tail(String log) {
		String[] lines = log.split("\n");
		return String.join("\n", Arrays.copyOfRange(lines, Math.max(0, lines.length - 60), lines.length));
	}

}
