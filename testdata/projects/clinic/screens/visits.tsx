import { screen, Page, Section, Heading, Table, Text } from 'tent/ui'
import { label, day } from '../lib/format'

// Every patient, by name, with their wards.
export const patientsScreen = screen({
  path: '/patients',
  title: 'Patients',
  load: async (ctx) => {
    const patients = await ctx.db.patients.all({ order: 'fullName' })
    return { patients }
  },
  view: ({ patients }) => (
    <Page title="Patients">
      <Text>{patients.length} patients</Text>
      <Section>
        <Heading>By name</Heading>
        <Text>The ward is empty for a patient at home.</Text>
      </Section>
      <Section>
        <Heading>All</Heading>
        <Table rows={patients} columns={['fullName', 'born', 'ward']} />
      </Section>
    </Page>
  ),
})

// One patient and their visits.
export const patientScreen = screen({
  path: '/patients/:id',
  title: 'Patient',
  load: async (ctx, params) => {
    const patient = await ctx.db.patients.get(params.id)
    const visits = await ctx.db.visits.where({ patient: params.id }, { order: 'at' })
    return { patient, visits }
  },
  view: ({ patient, visits }) => (
    <Page title={label(patient)}>
      <Text>Ward: {patient.ward ?? 'none'}</Text>
      {visits.map((v) => (
        <Text>
          {day(v.at)}: {v.reason} ({v.status})
        </Text>
      ))}
    </Page>
  ),
})
