package dev.triage.autoconfigure;

/**
 * Another library's setting that Triage cannot work with. Carries the property, its value, why it conflicts
 * and how to fix it, for {@link ConflictingSettingFailureAnalyzer}.
 */
class ConflictingSettingException extends IllegalStateException {

	private final String property;

	private final Object value;

	private final String reason;

	private final String fix;

	ConflictingSettingException(String property, Object value, String reason, String fix) {
		super("'" + property + "=" + value + "' conflicts with Triage: " + reason);
		this.property = property;
		this.value = value;
		this.reason = reason;
		this.fix = fix;
	}

	String property() {
		return this.property;
	}

	Object value() {
		return this.value;
	}

	String reason() {
		return this.reason;
	}

	String fix() {
		return this.fix;
	}

}
