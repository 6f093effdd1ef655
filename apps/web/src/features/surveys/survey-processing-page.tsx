import { ScreenPlaceholder } from '../../components/screen-placeholder.tsx';

export default function SurveyProcessingPage() {
  return <ScreenPlaceholder />;
}
